// The `integrations` dialog (SPEC §2 "Integrations": administrators of a Plus server with {ns}.enableBilling;
// §7 POST /{ns}/integrations/{key}): the payment provider (Asaas API key, sandbox, webhook token and the webhook
// URL to configure at Asaas) and the invoice defaults (first due day, description, fine, interest, discount).
// Secrets come back masked (last 4 characters); sending the mask back keeps the stored secret.
import {
  Alert,
  Button,
  CopyButton,
  Divider,
  Group,
  NumberInput,
  PasswordInput,
  type NumberInputProps,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  TextInput,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import {
  AMOUNT_MODES,
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
import { HintIcon } from '../../components/floating.tsx';
import { choiceBinder, fieldBinder, flagBinder } from '../../components/boundField.ts';
import { useIntegrations, useSaveIntegration } from './api.ts';

const num = (v: string | number) => (typeof v === 'number' ? v : Number(v.replace(',', '.')) || 0);
type NumberKey = 'firstDueDay' | 'fine' | 'interest' | 'discount' | 'discountDays';

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
    for (const i of list.data ?? [])
      if (i.key === 'payment') setPayment(i);
      else setInvoice(i);
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
      setError(serverMessage(err) || t('integrations.saveError'));
      notifications.show({ color: 'red', message: t('integrations.saveError') });
    }
  };

  const none = () => undefined;
  const setP = (k: string, v: string | boolean) => setPayment({ ...payment, [k]: v });
  const secret = fieldBinder({ t, values: payment, set: setP, err: none }, 'integrations', 'integrations');
  const flag = flagBinder({ t, values: payment, set: setP }, 'integrations', 'integrations');
  const setI = (k: string, v: string) => setInvoice({ ...invoice, [k]: v });
  const text = fieldBinder({ t, values: invoice, set: setI, err: none }, 'integrations');
  const hook = webhookUrl(window.location.origin, ns);
  const modes = AMOUNT_MODES.map((m) => ({ value: m, label: t(`integrations.mode.${m}`) }));
  const number = (k: NumberKey, props: NumberInputProps & { 'data-testid'?: string }) => (
    <NumberInput
      label={t(`integrations.${k}`)}
      value={invoice[k]}
      onChange={(v) => setInvoice({ ...invoice, [k]: num(v) })}
      {...props}
    />
  );
  const choice = choiceBinder({ t, values: invoice, set: setI, err: none }, 'integrations', 'integrations');
  const mode = (k: 'fineMode' | 'discountMode') => (
    <Select {...choice(k)} data={modes} allowDeselect={false} />
  );

  const saveButton = (key: 'payment' | 'invoice') => (
    <Group justify="flex-end">
      <Button
        onClick={() => void submit(key)}
        loading={save.isPending}
        data-testid={`integrations-save-${key}`}
      >
        {t('save')}
      </Button>
    </Group>
  );

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
            <Stack gap="sm">
              <Select
                label={t('integrations.provider')}
                data={[
                  { value: 'none', label: t('integrations.providerNone') },
                  { value: 'asaas', label: 'Asaas' },
                ]}
                value={payment.provider}
                allowDeselect={false}
                onChange={(v) => setPayment({ ...payment, provider: v === 'asaas' ? 'asaas' : 'none' })}
                data-testid="integrations-provider"
              />
              <Switch {...flag('sandbox')} />
              <PasswordInput
                {...secret('apiKey')}
                description={t('integrations.secretHint')}
                autoComplete="off"
              />
              <PasswordInput {...secret('webhookToken')} autoComplete="off" />
              <TextInput
                label={t('integrations.webhookUrl')}
                readOnly
                value={hook}
                data-testid="integrations-webhookUrl"
                rightSection={
                  <CopyButton value={hook}>
                    {({ copied, copy }) => (
                      <HintIcon
                        label={copied ? t('integrations.copied') : t('integrations.copy')}
                        aria-label={t('integrations.copy')}
                        onClick={copy}
                      >
                        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                      </HintIcon>
                    )}
                  </CopyButton>
                }
              />
              {saveButton('payment')}
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="invoice" pt="sm">
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {number('firstDueDay', {
                  min: 1,
                  max: 28,
                  allowDecimal: false,
                  'data-testid': 'integrations-firstDueDay',
                })}
                <TextInput {...text('description')} />
                {number('fine', { min: 0, decimalScale: 2 })}
                {mode('fineMode')}
                {number('interest', { min: 0, max: 100, decimalScale: 2 })}
                <div />
                {number('discount', { min: 0, decimalScale: 2 })}
                {mode('discountMode')}
                {number('discountDays', { min: 0, max: 365, allowDecimal: false })}
              </SimpleGrid>
              <Divider />
              {saveButton('invoice')}
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </DialogFrame>
  );
}
