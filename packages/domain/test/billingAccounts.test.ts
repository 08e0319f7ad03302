// Monthly due dates, overdue days and the suspension threshold (server billing job).
import { describe, expect, it } from 'vitest';
import {
  isMonthlyInvoiceDue,
  nextMonthlyDueDate,
  overdueDays,
  shouldAutoSuspend,
  trustUntilFrom,
} from '../src/billing.ts';

const at = (iso: string) => Date.parse(iso);

describe('monthly invoices', () => {
  it('the next due date is this month while the day has not passed, else next month (year rolls over)', () => {
    expect(nextMonthlyDueDate(at('2026-11-22T08:00:00Z'), 25)).toBe('2026-11-25');
    expect(nextMonthlyDueDate(at('2026-11-25T23:00:00Z'), 25)).toBe('2026-11-25');
    expect(nextMonthlyDueDate(at('2026-11-26T00:00:00Z'), 25)).toBe('2026-12-25');
    expect(nextMonthlyDueDate(at('2026-12-20T00:00:00Z'), 5)).toBe('2027-01-05');
    expect(nextMonthlyDueDate(at('2026-02-10T00:00:00Z'), 31)).toBe('2026-02-28');
  });
  it('is created from 10 days before the due date', () => {
    expect(isMonthlyInvoiceDue('2026-12-10', at('2026-11-29T12:00:00Z'))).toBe(false);
    expect(isMonthlyInvoiceDue('2026-12-10', at('2026-11-30T00:00:00Z'))).toBe(true);
    expect(isMonthlyInvoiceDue('2026-12-10', at('2026-12-10T20:00:00Z'))).toBe(true);
    expect(isMonthlyInvoiceDue('2026-12-10', at('2026-12-11T00:00:00Z'))).toBe(false);
  });
});

describe('overdue and suspension', () => {
  it('counts whole UTC days after the due date for open invoices only', () => {
    expect(overdueDays({ status: 'PENDING', dueDate: '2026-12-10' }, at('2026-12-10T23:59:00Z'))).toBe(0);
    expect(overdueDays({ status: 'PENDING', dueDate: '2026-12-10' }, at('2026-12-11T00:00:00Z'))).toBe(1);
    expect(overdueDays({ status: 'OVERDUE', dueDate: '2026-12-10' }, at('2026-12-15T10:00:00Z'))).toBe(5);
    expect(overdueDays({ status: 'RECEIVED', dueDate: '2026-12-10' }, at('2026-12-15T10:00:00Z'))).toBe(0);
  });
  it('suspends when an invoice is overdue for autoSuspendDays days, not before', () => {
    const inv = [{ status: 'OVERDUE' as const, dueDate: '2026-12-10' }];
    expect(shouldAutoSuspend(inv, 5, at('2026-12-14T12:00:00Z'))).toBe(false);
    expect(shouldAutoSuspend(inv, 5, at('2026-12-15T00:00:00Z'))).toBe(true);
    expect(shouldAutoSuspend([{ status: 'CANCELED', dueDate: '2026-01-01' }], 1, at('2026-12-15'))).toBe(
      false,
    );
  });
  it('a trust period lasts trustUnlockDays days (3 when unset)', () => {
    expect(trustUntilFrom(at('2026-12-15T10:00:00Z'), 2)).toBe('2026-12-17T10:00:00.000Z');
    expect(trustUntilFrom(at('2026-12-15T10:00:00Z'), null)).toBe('2026-12-18T10:00:00.000Z');
  });
});
