// The `invoices` dialog (SPEC §2 user menu "My Invoices", shown when the server's {ns}.enableBilling is on):
// the signed-in user's invoices, newest due date first, with a total still open.
import { Alert, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { isInvoiceOpen } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { serverDetail } from '../../api/http.ts';
import { useInvoices } from './api.ts';
import { InvoiceTable, useMoney } from './InvoiceTable.tsx';

export function InvoicesDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('billing');
  const list = useInvoices(null);
  const money = useMoney();
  const open = (list.data ?? []).filter((i) => isInvoiceOpen(i.status));
  const due = open.reduce((sum, i) => sum + i.value, 0);
  return (
    <Modal opened onClose={onClose} size={900} title={t('myInvoices')} data-testid="invoices-dialog">
      <Stack gap="sm">
        {list.isLoading ? (
          <Group justify="center">
            <Loader size="sm" />
          </Group>
        ) : list.isError ? (
          <Alert color="red">
            {t('loadError')}
            {serverDetail(list.error)}
          </Alert>
        ) : (
          <>
            {open.length ? (
              <Text size="sm" data-testid="invoices-open-total">
                {t('openTotal', { count: open.length, total: money(due) })}
              </Text>
            ) : null}
            <InvoiceTable invoices={list.data ?? []} />
          </>
        )}
      </Stack>
    </Modal>
  );
}
