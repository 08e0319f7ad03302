// The invoice list of both billing dialogs: status badge (invoiceTone), due date, value in the user's currency,
// paid date, the provider's "pay" link, overdue rows highlighted; administrators get cash and cancel buttons.
import { Anchor, Badge, Text } from '@mantine/core';
import { IconCash, IconX } from '@tabler/icons-react';
import { invoiceActions, isInvoiceOpen, invoiceTone, isOverdue, type Invoice } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { HintIcon } from '../../components/floating.tsx';
import { formatDay, useMoney } from '../../components/money.ts';

/** An administrator's buttons on an open invoice: the domain's action, what it sends, its colour and icon. */
const BUTTONS = [
  ['receiveInCash', 'cash', 'green', IconCash],
  ['cancel', 'cancel', 'red', IconX],
] as const;

export interface InvoiceTableProps {
  invoices: Invoice[];
  /** An administrator's table: cash and cancel offered on open invoices. */
  onAction?: (invoice: Invoice, action: 'cash' | 'cancel') => void;
}

export function InvoiceTable({ invoices, onAction }: InvoiceTableProps) {
  const { t, i18n } = useTranslation('billing');
  const money = useMoney();
  const now = Date.now();
  if (!invoices.length)
    return (
      <Text c="dimmed" ta="center" py="md" data-testid="invoices-empty">
        {t('empty')}
      </Text>
    );
  const columns: DataColumn<Invoice>[] = [
    { key: 'id', header: t('fields.id'), cell: (inv) => inv.id },
    {
      key: 'dueDate',
      header: t('fields.dueDate'),
      cell: (inv) =>
        `${formatDay(inv.dueDate, i18n.language)}${isOverdue(inv, now) ? ` · ${t('overdue')}` : ''}`,
      cellProps: (inv) => (isOverdue(inv, now) ? { c: 'red', fw: 700 } : {}),
    },
    { key: 'description', header: t('fields.description'), cell: (inv) => inv.description },
    {
      key: 'value',
      header: t('fields.value'),
      cell: (inv) => money(inv.value),
      props: { ta: 'right' },
      cellProps: () => ({ 'data-key': 'value' }),
    },
    {
      key: 'status',
      header: t('fields.status'),
      cell: (inv) => (
        <Badge color={invoiceTone(inv.status)} variant="light" data-testid="invoice-status">
          {t(`status.${inv.status}`)}
        </Badge>
      ),
    },
    {
      key: 'paidDate',
      header: t('fields.paidDate'),
      cell: (inv) => formatDay(inv.paidDate, i18n.language),
      cellProps: () => ({ 'data-key': 'paidDate' }),
    },
    {
      key: 'actions',
      cell: (inv) => (
        <>
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
            BUTTONS.filter(([offered]) => invoiceActions(inv.status, true).includes(offered)).map(
              ([offered, action, color, Icon]) => (
                <HintIcon
                  key={offered}
                  label={t(action)}
                  color={color}
                  onClick={() => onAction(inv, action)}
                  data-testid={`invoice-${action}`}
                >
                  <Icon size={18} />
                </HintIcon>
              ),
            )}
        </>
      ),
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
  ];
  return (
    <DataTable
      striped
      highlightOnHover
      data-testid="invoices-table"
      rows={invoices}
      columns={columns}
      rowKey={(inv) => inv.id}
      rowProps={(inv) => {
        const overdue = isOverdue(inv, now);
        return {
          'data-testid': 'invoice-row',
          'data-status': inv.status,
          'data-overdue': overdue || undefined,
          bg: overdue ? 'var(--mantine-color-red-light)' : undefined,
        };
      }}
    />
  );
}
