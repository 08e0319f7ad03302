// The open invoices of a suspended account, listed under the login error with a pay link: a chunk of its own
// (the table is loaded only when a suspended account signs in).
import { Anchor, Table } from '@mantine/core';
import { formatCurrency } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';
import type { LoginInvoice } from './invoices.ts';

const safeUrl = (u: string | null | undefined) => (u && /^https?:\/\//i.test(u) ? u : null);

export function SuspendedInvoices({ invoices }: { invoices: LoginInvoice[] }) {
  const { t, i18n } = useTranslation(['auth', 'billing']);
  const currency = useSession((s) => s.server?.attributes?.currency);
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  const day = (d: string | null | undefined) => {
    if (!d) return '';
    const date = new Date(`${d.slice(0, 10)}T12:00:00Z`);
    return Number.isNaN(date.getTime()) ? d : date.toLocaleDateString(i18n.language, { timeZone: 'UTC' });
  };
  return (
    <Table fz="xs" mt="xs" withTableBorder data-testid="login-invoices">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('auth:suspended.dueDate')}</Table.Th>
          <Table.Th ta="right">{t('auth:suspended.value')}</Table.Th>
          <Table.Th>{t('auth:suspended.status')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {invoices.map((inv) => {
          const url = safeUrl(inv.invoiceUrl);
          const statusKey = `billing:status.${inv.status ?? ''}`;
          return (
            <Table.Tr key={String(inv.id)} data-testid="login-invoice">
              <Table.Td>{day(inv.dueDate)}</Table.Td>
              <Table.Td ta="right">
                {typeof inv.value === 'number' ? formatCurrency(inv.value, i18n.language, code) : ''}
              </Table.Td>
              <Table.Td>{inv.status && i18n.exists(statusKey) ? t(statusKey) : (inv.status ?? '')}</Table.Td>
              <Table.Td>
                {url && (
                  <Anchor
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-testid="login-invoice-pay"
                  >
                    {t('auth:suspended.pay')}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
