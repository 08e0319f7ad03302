// The `integrations` dialog (SPEC §2 "Integrations": administrators of a Plus server with {ns}.enableBilling;
// §7 POST /{ns}/integrations/{key}): the payment provider (Asaas API key, sandbox, webhook token and the webhook
// URL to configure at Asaas) and the invoice defaults (first due day, description, fine, interest, discount).
// Secrets come back masked (last 4 characters); sending the mask back keeps the stored secret.
import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Divider,
  Group,
  Loader,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import {
  AMOUNT_MODES,
  DEFAULT_INVOICE_INTEGRATION,
  DEFAULT_PAYMENT_INTEGRATION,
  userMenuEntries,
  describeZodError,
  invoiceIntegrationSchema,
  paymentIntegrationSchema,
  type AmountMode,
  type InvoiceIntegration,
  type PaymentIntegration,
} from '@rastro/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { serverMessage } from '../../api/http.ts';
import { useSession } from '../../stores/session.ts';
import { useIntegrations, useSaveIntegration } from './api.ts';

/** The URL the payment provider posts its events to. */
export const webhookUrl = (origin: string, ns: string) => `${origin}/${ns}/billing/webhook`;

/** The label of each integration field, to name the invalid one. */
const FIELD_LABELS: Record<string, string> = {
  provider: 'integrations.provider',
  sandbox: 'integrations.sandbox',
  apiKey: 'integrations.apiKey',
  webhookToken: 'integrations.webhookToken',
  firstDueDay: 'integrations.firstDueDay',
  description: 'fields.description',
  fine: 'integrations.fine',
  fineMode: 'integrations.fineMode',
  interest: 'integrations.interest',
  discount: 'integrations.discount',
  discountMode: 'integrations.discountMode',
  discountDays: 'integrations.discountDays',
};

const num = (v: string | number) => (typeof v === 'number' ? v : Number(v.replace(',', '.')) || 0);

export function IntegrationsDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('billing');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const allowed = userMenuEntries({ user, server, isPlus, ns }).includes('integrations');
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
      const field = String(r.error.issues[0]?.path[0] ?? '');
      setError(field in FIELD_LABELS ? t(FIELD_LABELS[field]) : describeZodError(r.error));
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
  const modes = AMOUNT_MODES.map((m) => ({ value: m, label: t(`integrations.mode.${m}`) }));

  return (
    <Modal
      opened
      onClose={onClose}
      size={720}
      title={t('integrations.title')}
      data-testid="integrations-dialog"
    >
      {!allowed ? (
        <Alert color="red">{t('denied')}</Alert>
      ) : list.isLoading ? (
        <Group justify="center">
          <Loader size="sm" />
        </Group>
      ) : (
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
                <Switch
                  label={t('integrations.sandbox')}
                  checked={payment.sandbox}
                  onChange={(e) => setPayment({ ...payment, sandbox: e.currentTarget.checked })}
                  data-testid="integrations-sandbox"
                />
                <PasswordInput
                  label={t('integrations.apiKey')}
                  description={t('integrations.secretHint')}
                  autoComplete="off"
                  value={payment.apiKey}
                  onChange={(e) => setPayment({ ...payment, apiKey: e.currentTarget.value })}
                  data-testid="integrations-apiKey"
                />
                <PasswordInput
                  label={t('integrations.webhookToken')}
                  autoComplete="off"
                  value={payment.webhookToken}
                  onChange={(e) => setPayment({ ...payment, webhookToken: e.currentTarget.value })}
                  data-testid="integrations-webhookToken"
                />
                <TextInput
                  label={t('integrations.webhookUrl')}
                  readOnly
                  value={hook}
                  data-testid="integrations-webhookUrl"
                  rightSection={
                    <CopyButton value={hook}>
                      {({ copied, copy }) => (
                        <Tooltip label={copied ? t('integrations.copied') : t('integrations.copy')}>
                          <ActionIcon variant="subtle" onClick={copy} aria-label={t('integrations.copy')}>
                            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </CopyButton>
                  }
                />
                <Group justify="flex-end">
                  <Button
                    onClick={() => void submit('payment')}
                    loading={save.isPending}
                    data-testid="integrations-save-payment"
                  >
                    {t('save')}
                  </Button>
                </Group>
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="invoice" pt="sm">
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <NumberInput
                    label={t('integrations.firstDueDay')}
                    min={1}
                    max={28}
                    allowDecimal={false}
                    value={invoice.firstDueDay}
                    onChange={(v) => setInvoice({ ...invoice, firstDueDay: num(v) })}
                    data-testid="integrations-firstDueDay"
                  />
                  <TextInput
                    label={t('fields.description')}
                    value={invoice.description}
                    onChange={(e) => setInvoice({ ...invoice, description: e.currentTarget.value })}
                    data-testid="integrations-description"
                  />
                  <NumberInput
                    label={t('integrations.fine')}
                    min={0}
                    decimalScale={2}
                    value={invoice.fine}
                    onChange={(v) => setInvoice({ ...invoice, fine: num(v) })}
                  />
                  <Select
                    label={t('integrations.fineMode')}
                    data={modes}
                    value={invoice.fineMode}
                    allowDeselect={false}
                    onChange={(v) => setInvoice({ ...invoice, fineMode: (v as AmountMode) ?? 'PERCENTAGE' })}
                  />
                  <NumberInput
                    label={t('integrations.interest')}
                    min={0}
                    max={100}
                    decimalScale={2}
                    value={invoice.interest}
                    onChange={(v) => setInvoice({ ...invoice, interest: num(v) })}
                  />
                  <div />
                  <NumberInput
                    label={t('integrations.discount')}
                    min={0}
                    decimalScale={2}
                    value={invoice.discount}
                    onChange={(v) => setInvoice({ ...invoice, discount: num(v) })}
                  />
                  <Select
                    label={t('integrations.discountMode')}
                    data={modes}
                    value={invoice.discountMode}
                    allowDeselect={false}
                    onChange={(v) =>
                      setInvoice({ ...invoice, discountMode: (v as AmountMode) ?? 'PERCENTAGE' })
                    }
                  />
                  <NumberInput
                    label={t('integrations.discountDays')}
                    min={0}
                    max={365}
                    allowDecimal={false}
                    value={invoice.discountDays}
                    onChange={(v) => setInvoice({ ...invoice, discountDays: num(v) })}
                  />
                </SimpleGrid>
                <Divider />
                <Group justify="flex-end">
                  <Button
                    onClick={() => void submit('invoice')}
                    loading={save.isPending}
                    data-testid="integrations-save-invoice"
                  >
                    {t('save')}
                  </Button>
                </Group>
              </Stack>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </Modal>
  );
}
