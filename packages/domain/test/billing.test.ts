import { describe, expect, it } from 'vitest';
import {
  INVOICE_STATUSES,
  accountState,
  invoiceActions,
  invoiceTone,
  isInvoiceStatus,
  isOverdue,
} from '../src/billing.ts';

describe('invoices', () => {
  it('has the 15 statuses of SPEC §3', () => {
    expect(INVOICE_STATUSES).toHaveLength(15);
    expect(isInvoiceStatus('RECEIVED_IN_CASH')).toBe(true);
    expect(isInvoiceStatus('PAID')).toBe(false);
  });
  it('admins may cancel or mark received in cash only open invoices', () => {
    expect(invoiceActions('PENDING', true)).toEqual(['cancel', 'receiveInCash']);
    expect(invoiceActions('OVERDUE', true)).toEqual(['cancel', 'receiveInCash']);
    expect(invoiceActions('RECEIVED', true)).toEqual([]);
    expect(invoiceActions('PENDING', false)).toEqual([]);
  });
  it('tones and overdue', () => {
    expect(invoiceTone('CONFIRMED')).toBe('green');
    expect(invoiceTone('OVERDUE')).toBe('red');
    expect(invoiceTone('CANCELED')).toBe('gray');
    expect(invoiceTone('PENDING')).toBe('yellow');
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(isOverdue({ status: 'PENDING', dueDate: '2026-03-09' }, now)).toBe(true);
    expect(isOverdue({ status: 'PENDING', dueDate: '2026-03-10' }, now)).toBe(false);
    expect(isOverdue({ status: 'RECEIVED', dueDate: '2026-03-01' }, now)).toBe(false);
  });
});

describe('account state', () => {
  it('active, suspended with one trust unlock, disabled', () => {
    expect(accountState({})).toBe('active');
    expect(accountState({ suspended: true })).toBe('suspendedTrust');
    expect(accountState({ suspended: true, trustUsed: true })).toBe('suspended');
    expect(accountState({ suspended: true, disabled: true })).toBe('disabled');
  });
});
