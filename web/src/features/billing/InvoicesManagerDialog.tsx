// The `invoicesManager` dialog (SPEC §2 "Billing management": administrators of a Plus server with
// {ns}.enableBilling on; §4 an invoice can be cancelled or marked received in cash): pick a user, see and filter
// their invoices by status, create one (charged at the payment provider when configured), cash or cancel it
// after a confirmation. The new-invoice form: value, due date and description for the picked user.
import { Alert, Button, Group, Loader, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import {
  DEFAULT_INVOICE_INTEGRATION,
  INVOICE_STATUSES,
  userMenuEntries,
  isInvoiceOpen,
  isInvoicePaid,
  nextDueDate,
  parseInvoiceForm,
  type Invoice,
  type InvoiceFormValues,
  type InvoiceIntegration,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { serverMessage } from '../../api/http.ts';
import { useResourceList } from '../../api/resources.ts';
import { fieldBinder } from '../../components/boundField.ts';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { DateField } from '../../components/DateField.tsx';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { useParsedForm } from '../../components/useParsedForm.ts';
import { useViewer } from '../../components/useCan.ts';
import { useCreateInvoice, useIntegrations, useInvoiceAction, useInvoices } from './api.ts';
import { useMoney } from '../../components/money.ts';
import { InvoiceTable } from './InvoiceTable.tsx';

export const INVOICE_STATUS_FILTERS = ['all', 'open', 'paid', ...INVOICE_STATUSES] as const;
export type InvoiceStatusFilter = (typeof INVOICE_STATUS_FILTERS)[number];

/** Whether an invoice passes the status filter (open / paid groups, or one exact status). */
export function matchesStatus(inv: Pick<Invoice, 'status'>, f: InvoiceStatusFilter): boolean {
  if (f === 'all') return true;
  if (f === 'open') return isInvoiceOpen(inv.status);
  if (f === 'paid') return isInvoicePaid(inv.status);
  return inv.status === f;
}

const errorText = (err: unknown) => serverMessage(err) ?? '';

export function InvoicesManagerDialog({ onClose, props }: DialogComponentProps<'invoicesManager'>) {
  const { t } = useTranslation('billing');
  const allowed = userMenuEntries(useViewer()).includes('billing');
  const users = useResourceList('users', undefined, { enabled: allowed });
  const [userId, setUserId] = useState<number | null>(props.userId ?? null);
  const [filter, setFilter] = useState<InvoiceStatusFilter>('all');
  const list = useInvoices(userId, allowed && userId !== null);
  const integrations = useIntegrations(allowed);
  const create = useCreateInvoice();
  const act = useInvoiceAction();
  const money = useMoney();
  // the new invoice's form (open: shown instead of the list), checked by the domain's parseInvoiceForm
  const [formOpen, setFormOpen] = useState(false);
  const f = useParsedForm({
    ns: 'billing',
    initial: { userId: null, value: '', dueDate: '', description: '' } as InvoiceFormValues,
    parse: (v: InvoiceFormValues) => parseInvoiceForm({ ...v, userId }),
    save: async (invoice) => void (await create.mutateAsync(invoice)),
    saved: 'created',
    failure: (err, tr) => `${tr('createError')} ${errorText(err)}`.trim(),
    what: 'invoice',
    onClose: () => setFormOpen(false),
  });
  const [confirm, setConfirm] = useState<{ invoice: Invoice; action: 'cash' | 'cancel' } | null>(null);

  const defaults =
    (integrations.data?.find((i) => i.key === 'invoice') as InvoiceIntegration | undefined) ??
    DEFAULT_INVOICE_INTEGRATION;
  const userOptions = useMemo(
    () =>
      (users.data ?? [])
        .map((u) => ({ value: String(u.id), label: u.name ? `${u.name} (${u.email})` : u.email }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [users.data],
  );
  const rows = (list.data ?? []).filter((i) => matchesStatus(i, filter));

  const openForm = () => {
    f.setErrors({});
    const today = new Date().toISOString().slice(0, 10);
    const dueDate = nextDueDate(today, defaults.firstDueDay);
    f.setForm({ userId, value: '', dueDate, description: defaults.description });
    setFormOpen(true);
  };

  const runAction = async () => {
    if (!confirm) return;
    try {
      await act.mutateAsync({ id: confirm.invoice.id, action: confirm.action });
      notifications.show({
        color: 'green',
        message: t(confirm.action === 'cash' ? 'cashDone' : 'cancelDone'),
      });
    } catch (err) {
      console.warn('invoice action failed', err);
      notifications.show({ color: 'red', message: `${t('actionError')} ${errorText(err)}`.trim() });
    }
    setConfirm(null);
  };

  const err = (k: string) => (f.errors[k] ? t(`errors.${k}`) : undefined);
  const set = (k: keyof InvoiceFormValues, v: string) => f.setForm((form) => ({ ...form, [k]: v }));
  const field = fieldBinder({ t, values: f.form, set, err }, 'invoice');

  return (
    <DialogFrame
      onClose={onClose}
      size={960}
      title={t('manager')}
      testId="invoices-manager-dialog"
      denied={!allowed && t('denied')}
    >
      {formOpen ? (
        <Stack gap="sm" data-testid="invoice-form">
          <Text size="sm">
            {t('fields.user')}: <b>{userOptions.find((o) => o.value === String(userId))?.label ?? ''}</b>
          </Text>
          {err('userId') ? <Alert color="red">{t('pickUser')}</Alert> : null}
          <Group grow align="flex-start">
            <TextInput {...field('value')} required inputMode="decimal" />
            <DateField {...field('dueDate')} required onChange={(value) => set('dueDate', value)} />
          </Group>
          <Textarea {...field('description')} rows={2} />
          <SaveCancel
            cancel={t('back')}
            save={t('save')}
            onCancel={() => setFormOpen(false)}
            onSave={() => void f.submit()}
            loading={f.busy}
            saveTestId="invoice-save"
          />
        </Stack>
      ) : (
        <Stack gap="sm">
          <Group align="flex-end" wrap="wrap">
            <Select
              label={t('fields.user')}
              placeholder={t('pickUser')}
              searchable
              data={userOptions}
              value={userId === null ? null : String(userId)}
              onChange={(v) => setUserId(v ? Number(v) : null)}
              nothingFoundMessage={t('noUsers')}
              style={{ flex: 1, minWidth: 240 }}
              data-testid="invoices-user"
            />
            <Select
              label={t('fields.status')}
              data={INVOICE_STATUS_FILTERS.map((f) => ({
                value: f,
                label: f === 'all' || f === 'open' || f === 'paid' ? t(`filter.${f}`) : t(`status.${f}`),
              }))}
              value={filter}
              onChange={(v) => setFilter((v as InvoiceStatusFilter | null) ?? 'all')}
              allowDeselect={false}
              w={220}
              data-testid="invoices-filter"
            />
            <Button
              leftSection={<IconPlus size={16} />}
              disabled={userId === null}
              onClick={openForm}
              data-testid="invoice-add"
            >
              {t('add')}
            </Button>
          </Group>
          {userId === null ? (
            <Text c="dimmed" ta="center" py="md">
              {t('pickUser')}
            </Text>
          ) : list.isLoading ? (
            <Group justify="center">
              <Loader size="sm" />
            </Group>
          ) : list.isError ? (
            <Alert color="red">{`${t('loadError')} ${errorText(list.error)}`.trim()}</Alert>
          ) : (
            <InvoiceTable invoices={rows} onAction={(invoice, action) => setConfirm({ invoice, action })} />
          )}
        </Stack>
      )}
      {confirm && (
        <ConfirmModal
          title={confirm.action === 'cash' ? t('cash') : t('cancel')}
          size="sm"
          testId="invoice-confirm"
          question={t(confirm.action === 'cash' ? 'confirmCash' : 'confirmCancel', {
            id: confirm.invoice.id,
            value: money(confirm.invoice.value),
          })}
          cancel={t('no')}
          yes={t('yes')}
          yesTestId="invoice-confirm-yes"
          color={confirm.action === 'cash' ? 'green' : 'red'}
          loading={act.isPending}
          onYes={() => void runAction()}
          onClose={() => setConfirm(null)}
        />
      )}
    </DialogFrame>
  );
}
