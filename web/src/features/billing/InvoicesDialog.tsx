// The `invoices` dialog (SPEC §2 user menu "My Invoices", shown when the server's {ns}.enableBilling is on):
// the signed-in user's invoices, newest due date first, with a total still open.
import { Stack, Text } from '@mantine/core';
import { isInvoiceOpen } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { serverDetail } from '../../api/http.ts';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { useInvoices } from './api.ts';
import { useMoney } from '../../components/money.ts';
import { InvoiceTable } from './InvoiceTable.tsx';

export function InvoicesDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('billing');
  const list = useInvoices(null);
  const money = useMoney();
  const open = (list.data ?? []).filter((i) => isInvoiceOpen(i.status));
  const due = open.reduce((sum, i) => sum + i.value, 0);
  return (
    <DialogFrame
      onClose={onClose}
      size={900}
      title={t('myInvoices')}
      testId="invoices-dialog"
      loading={list.isLoading}
      error={list.isError && `${t('loadError')}${serverDetail(list.error)}`}
    >
      <Stack gap="sm">
        {open.length ? (
          <Text size="sm" data-testid="invoices-open-total">
            {t('openTotal', { count: open.length, total: money(due) })}
          </Text>
        ) : null}
        <InvoiceTable invoices={list.data ?? []} />
      </Stack>
    </DialogFrame>
  );
}
