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

// ---- automatic monthly invoices and suspension (server billing job; docs/billing.md "Accounts") ----------

/** A monthly invoice is created when its due date is at most this many days ahead. */
export const MONTHLY_INVOICE_LEAD_DAYS = 10;
/** Trust period when a user's `{ns}.trustUnlockDays` is not set. */
export const DEFAULT_TRUST_UNLOCK_DAYS = 3;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (date: string) => Date.parse(`${date}T00:00:00.000Z`);

/**
 * The next monthly due date (UTC, 'YYYY-MM-DD') on or after the day of `nowMs`: this month's `dueDay` if it has
 * not passed yet, else next month's. `dueDay` is clamped to 1..28.
 */
export function nextMonthlyDueDate(nowMs: number, dueDay: number): string {
  const d = new Date(nowMs);
  const day = Math.min(28, Math.max(1, Math.trunc(dueDay) || 1));
  let y = d.getUTCFullYear();
  let m = d.getUTCMonth();
  if (d.getUTCDate() > day) {
    m += 1;
    if (m > 11) {
      m = 0;
      y += 1;
    }
  }
  return `${y}-${String(m + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The monthly invoice due on `dueDate` is created from `MONTHLY_INVOICE_LEAD_DAYS` days before it. */
export function isMonthlyInvoiceDue(dueDate: string, nowMs: number): boolean {
  const days = Math.round((dayStart(dueDate) - dayStart(isoDay(nowMs))) / DAY_MS);
  return days >= 0 && days <= MONTHLY_INVOICE_LEAD_DAYS;
}

/**
 * Whole days an open invoice is overdue on the (UTC) day of `nowMs`: 0 on or before its due date, 1 the day
 * after, and so on. Closed invoices are never overdue.
 */
export function overdueDays(invoice: { status: InvoiceStatus; dueDate: string }, nowMs: number): number {
  if (!isInvoiceOpen(invoice.status)) return 0;
  const due = dayStart(invoice.dueDate.slice(0, 10));
  if (Number.isNaN(due)) return 0;
  return Math.max(0, Math.round((dayStart(isoDay(nowMs)) - due) / DAY_MS));
}

/** `autoSuspendDays` reached by the oldest overdue invoice (days below 1 count as 1). */
export function shouldAutoSuspend(
  invoices: readonly { status: InvoiceStatus; dueDate: string }[],
  autoSuspendDays: number,
  nowMs: number,
): boolean {
  const limit = Math.max(1, Math.trunc(autoSuspendDays) || 1);
  return invoices.some((i) => overdueDays(i, nowMs) >= limit);
}

/** End of a trust period of `days` days started at `nowMs` (ISO date-time). */
export function trustUntilFrom(nowMs: number, days: number | null | undefined): string {
  const d = days && days >= 1 ? Math.trunc(days) : DEFAULT_TRUST_UNLOCK_DAYS;
  return new Date(nowMs + d * DAY_MS).toISOString();
}
