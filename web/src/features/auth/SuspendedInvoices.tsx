// The open invoices of a suspended account, listed under the login error with a pay link: a chunk of its own
// (the table is loaded only when a suspended account signs in).
import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable.tsx';
import { formatDay, useMoney } from '../../components/money.ts';
import type { LoginInvoice } from './invoices.ts';

const safeUrl = (u: string | null | undefined) => (u && /^https?:\/\//i.test(u) ? u : null);

export function SuspendedInvoices({ invoices }: { invoices: LoginInvoice[] }) {
  const { t, i18n } = useTranslation(['auth', 'billing']);
  const money = useMoney();
  const status = (s: string | null | undefined) =>
    s && i18n.exists(`billing:status.${s}`) ? t(`billing:status.${s}`) : (s ?? '');
  return (
    <DataTable
      fz="xs"
      mt="xs"
      withTableBorder
      data-testid="login-invoices"
      rows={invoices}
      rowKey={(inv) => String(inv.id)}
      rowProps={() => ({ 'data-testid': 'login-invoice' })}
      columns={[
        {
          key: 'due',
          header: t('auth:suspended.dueDate'),
          cell: (inv) => formatDay(inv.dueDate, i18n.language),
        },
        {
          key: 'value',
          header: t('auth:suspended.value'),
          cell: (inv) => (typeof inv.value === 'number' ? money(inv.value) : ''),
          props: { ta: 'right' },
        },
        { key: 'status', header: t('auth:suspended.status'), cell: (inv) => status(inv.status) },
        {
          key: 'pay',
          cell: (inv) => {
            const url = safeUrl(inv.invoiceUrl);
            return (
              url && (
                <Anchor href={url} target="_blank" rel="noopener noreferrer" data-testid="login-invoice-pay">
                  {t('auth:suspended.pay')}
                </Anchor>
              )
            );
          },
        },
      ]}
    />
  );
}
