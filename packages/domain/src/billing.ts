// SPEC §3/§4/§6 billing: invoice statuses and actions, account states and who may act on them.

export const INVOICE_STATUSES = [
  'TARKAN_GENERATED',
  'PENDING',
  'RECEIVED_IN_CASH',
  'RECEIVED',
  'CONFIRMED',
  'OVERDUE',
  'REFUND_REQUESTED',
  'REFUND_IN_PROGRESS',
  'CHARGEBACK_REQUESTED',
  'CHARGEBACK_DISPUTE',
  'AWAITING_CHARGEBACK_REVERSAL',
  'DUNNING_REQUESTED',
  'DUNNING_RECEIVED',
  'AWAITING_RISK_ANALYSIS',
  'CANCELED',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PAID_INVOICE_STATUSES: readonly InvoiceStatus[] = [
  'RECEIVED_IN_CASH',
  'RECEIVED',
  'CONFIRMED',
  'DUNNING_RECEIVED',
];
export const OPEN_INVOICE_STATUSES: readonly InvoiceStatus[] = ['TARKAN_GENERATED', 'PENDING', 'OVERDUE'];

export function isInvoiceStatus(v: unknown): v is InvoiceStatus {
  return typeof v === 'string' && (INVOICE_STATUSES as readonly string[]).includes(v);
}

export const isInvoicePaid = (s: InvoiceStatus): boolean => PAID_INVOICE_STATUSES.includes(s);
export const isInvoiceOpen = (s: InvoiceStatus): boolean => OPEN_INVOICE_STATUSES.includes(s);

/** Status colour group for badges. */
export function invoiceTone(s: InvoiceStatus): 'green' | 'yellow' | 'red' | 'gray' {
  if (isInvoicePaid(s)) return 'green';
  if (s === 'OVERDUE' || s.startsWith('CHARGEBACK') || s === 'AWAITING_CHARGEBACK_REVERSAL') return 'red';
  if (s === 'CANCELED') return 'gray';
  return 'yellow';
}

/** An administrator may cancel or mark received in cash only open invoices. */
export function invoiceActions(s: InvoiceStatus, isAdmin: boolean): ('cancel' | 'receiveInCash')[] {
  return isAdmin && isInvoiceOpen(s) ? ['cancel', 'receiveInCash'] : [];
}

/** Overdue by date: open and due before `nowMs`. Dates are ISO dates (YYYY-MM-DD) or date-times. */
export function isOverdue(invoice: { status: InvoiceStatus; dueDate: string }, nowMs: number): boolean {
  if (!isInvoiceOpen(invoice.status)) return false;
  const due = Date.parse(
    invoice.dueDate.length === 10 ? `${invoice.dueDate}T23:59:59.999Z` : invoice.dueDate,
  );
  return !Number.isNaN(due) && due < nowMs;
}

export const ACCOUNT_STATES = ['active', 'suspended', 'suspendedTrust', 'disabled'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/**
 * Account state: disabled (or blocked) wins; suspended for non-payment, with a one-time trust unlock available
 * while it has not been used; else active.
 */
export function accountState(u: {
  disabled?: boolean;
  suspended?: boolean;
  trustUsed?: boolean;
}): AccountState {
  if (u.disabled) return 'disabled';
  if (u.suspended) return u.trustUsed ? 'suspended' : 'suspendedTrust';
  return 'active';
}
