// The invoice list of both billing dialogs: status badge (invoiceTone), due date, value in the user's currency,
// paid date, the provider's "pay" link, overdue rows highlighted; administrators get cash and cancel buttons.
import { ActionIcon, Anchor, Badge, Table, Text, Tooltip } from '@mantine/core';
import { IconCash, IconX } from '@tabler/icons-react';
import {
  formatCurrency,
  invoiceActions,
  isInvoiceOpen,
  invoiceTone,
  isOverdue,
  type Invoice,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';

/** A YYYY-MM-DD date in the language's short form (the date itself, no time zone shift). */
export function formatDay(day: string | null, locale: string): string {
  if (!day) return '';
  const d = new Date(`${day.slice(0, 10)}T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : d.toLocaleDateString(locale, { timeZone: 'UTC' });
}

export function useMoney(): (value: number) => string {
  const { i18n } = useTranslation();
  const server = useSession((s) => s.server);
  const currency = server?.attributes?.currency;
  return (value) =>
    formatCurrency(
      value,
      i18n.language,
      typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined,
    );
}

/** An administrator's buttons on an open invoice: the domain's action, what it sends, its colour and icon. */
const BUTTONS = [
  ['receiveInCash', 'cash', 'green', IconCash],
  ['cancel', 'cancel', 'red', IconX],
] as const;

export interface InvoiceTableProps {
  invoices: Invoice[];
  /** Administrators: offer cash and cancel on open invoices. */
  admin?: boolean;
  onAction?: (invoice: Invoice, action: 'cash' | 'cancel') => void;
}

export function InvoiceTable({ invoices, admin = false, onAction }: InvoiceTableProps) {
  const { t, i18n } = useTranslation('billing');
  const money = useMoney();
  const now = Date.now();
  if (!invoices.length)
    return (
      <Text c="dimmed" ta="center" py="md" data-testid="invoices-empty">
        {t('empty')}
      </Text>
    );
  return (
    <Table striped highlightOnHover data-testid="invoices-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('fields.id')}</Table.Th>
          <Table.Th>{t('fields.dueDate')}</Table.Th>
          <Table.Th>{t('fields.description')}</Table.Th>
          <Table.Th ta="right">{t('fields.value')}</Table.Th>
          <Table.Th>{t('fields.status')}</Table.Th>
          <Table.Th>{t('fields.paidDate')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {invoices.map((inv) => {
          const overdue = isOverdue(inv, now);
          const actions = invoiceActions(inv.status, admin);
          return (
            <Table.Tr
              key={inv.id}
              data-testid="invoice-row"
              data-status={inv.status}
              data-overdue={overdue || undefined}
              bg={overdue ? 'var(--mantine-color-red-light)' : undefined}
            >
              <Table.Td>{inv.id}</Table.Td>
              <Table.Td c={overdue ? 'red' : undefined} fw={overdue ? 700 : undefined}>
                {formatDay(inv.dueDate, i18n.language)}
                {overdue ? ` · ${t('overdue')}` : ''}
              </Table.Td>
              <Table.Td>{inv.description}</Table.Td>
              <Table.Td ta="right" data-key="value">
                {money(inv.value)}
              </Table.Td>
              <Table.Td>
                <Badge color={invoiceTone(inv.status)} variant="light" data-testid="invoice-status">
                  {t(`status.${inv.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td data-key="paidDate">{formatDay(inv.paidDate, i18n.language)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {inv.invoiceUrl && isInvoiceOpen(inv.status) ? (
                  <Anchor
                    href={inv.invoiceUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    mr="xs"
                    data-testid="invoice-pay"
                  >
                    {t('pay')}
                  </Anchor>
                ) : null}
                {onAction &&
                  BUTTONS.filter(([offered]) => actions.includes(offered)).map(
                    ([offered, action, color, Icon]) => (
                      <Tooltip key={offered} label={t(action)}>
                        <ActionIcon
                          variant="subtle"
                          color={color}
                          aria-label={t(action)}
                          onClick={() => onAction(inv, action)}
                          data-testid={`invoice-${action}`}
                        >
                          <Icon size={18} />
                        </ActionIcon>
                      </Tooltip>
                    ),
                  )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
