// The `integrations` dialog (SPEC §2 "Integrations": administrators of a Plus server with {ns}.enableBilling;
// §7 POST /{ns}/integrations/{key}): the payment provider (Asaas API key, sandbox, webhook token and the webhook
// URL to configure at Asaas) and the invoice defaults (first due day, description, fine, interest, discount).
// Secrets come back masked (last 4 characters); sending the mask back keeps the stored secret.
import { Alert, Stack, Tabs } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  DEFAULT_INVOICE_INTEGRATION,
  DEFAULT_PAYMENT_INTEGRATION,
  userMenuEntries,
  describeZodError,
  invoiceIntegrationSchema,
  paymentIntegrationSchema,
  type InvoiceIntegration,
  type PaymentIntegration,
} from '@rastro/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { serverMessage } from '../../api/http.ts';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { useViewer } from '../../components/useCan.ts';
import { useSession } from '../../stores/session.ts';
import { useIntegrations, useSaveIntegration } from './api.ts';
import { InvoiceDefaultsForm, PaymentForm } from './IntegrationForms.tsx';

/** The URL the payment provider posts its events to. */
export const webhookUrl = (origin: string, ns: string) => `${origin}/${ns}/billing/webhook`;

/** The label of an integration field of the forms, to name the invalid one (null for any other path). */
const fieldLabel = (field: string) =>
  field === 'key' || !(field in { ...DEFAULT_PAYMENT_INTEGRATION, ...DEFAULT_INVOICE_INTEGRATION })
    ? null
    : field === 'description'
      ? 'fields.description'
      : `integrations.${field}`;

export function IntegrationsDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('billing');
  const ns = useSession((s) => s.ns);
  const allowed = userMenuEntries(useViewer()).includes('integrations');
  const list = useIntegrations(allowed);
  const save = useSaveIntegration();
  const [payment, setPayment] = useState<PaymentIntegration>(DEFAULT_PAYMENT_INTEGRATION);
  const [invoice, setInvoice] = useState<InvoiceIntegration>(DEFAULT_INVOICE_INTEGRATION);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const p = list.data?.find((i) => i.key === 'payment') as PaymentIntegration | undefined;
    const i = list.data?.find((x) => x.key === 'invoice') as InvoiceIntegration | undefined;
    if (p) setPayment(p);
    if (i) setInvoice(i);
  }, [list.data]);

  const submit = async (key: 'payment' | 'invoice') => {
    const r =
      key === 'payment'
        ? paymentIntegrationSchema.safeParse(payment)
        : invoiceIntegrationSchema.safeParse(invoice);
    if (!r.success) {
      const label = fieldLabel(String(r.error.issues[0]?.path[0] ?? ''));
      setError(label ? t(label) : describeZodError(r.error));
      return;
    }
    setError(null);
    try {
      await save.mutateAsync(r.data);
      notifications.show({ color: 'green', message: t('integrations.saved') });
    } catch (err) {
      console.warn('integration not saved', err);
      const text = serverMessage(err) ?? '';
      setError(text || t('integrations.saveError'));
      notifications.show({ color: 'red', message: t('integrations.saveError') });
    }
  };

  const hook = webhookUrl(window.location.origin, ns);

  return (
    <DialogFrame
      onClose={onClose}
      size={720}
      title={t('integrations.title')}
      testId="integrations-dialog"
      denied={!allowed && t('denied')}
      loading={list.isLoading}
    >
      <Stack gap="sm">
        {error ? (
          <Alert color="red" data-testid="integrations-error">
            {`${t('integrations.invalid')} ${error}`}
          </Alert>
        ) : null}
        <Tabs defaultValue="payment">
          <Tabs.List>
            <Tabs.Tab value="payment">{t('integrations.payment')}</Tabs.Tab>
            <Tabs.Tab value="invoice">{t('integrations.invoice')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="payment" pt="sm">
            <PaymentForm
              value={payment}
              onChange={setPayment}
              hook={hook}
              saving={save.isPending}
              onSave={() => void submit('payment')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="invoice" pt="sm">
            <InvoiceDefaultsForm
              value={invoice}
              onChange={setInvoice}
              saving={save.isPending}
              onSave={() => void submit('invoice')}
            />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </DialogFrame>
  );
}
