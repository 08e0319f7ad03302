// The suspended account's invoices as the login error shows them: well-formed ones kept, others dropped.
import { describe, expect, it } from 'vitest';
import { failureInvoices } from './invoices.ts';

describe('failureInvoices', () => {
  it('keeps well-formed invoices, reads a numeric text value, drops malformed ones', () => {
    const invoices = failureInvoices({
      code: 'ACCOUNT_IS_SUSPENDED',
      invoices: [
        { id: 7, dueDate: '2026-11-01', value: 99.9, status: 'OVERDUE', invoiceUrl: 'https://pay.example/7' },
        { id: 'inv-8', value: '120.50', status: null },
        { id: 9, value: 'abc' },
        { dueDate: '2026-11-01' },
        { id: 10, dueDate: 20261101 },
        null,
        'x',
      ],
    });
    expect(invoices).toEqual([
      { id: 7, dueDate: '2026-11-01', value: 99.9, status: 'OVERDUE', invoiceUrl: 'https://pay.example/7' },
      { id: 'inv-8', dueDate: undefined, value: 120.5, status: null, invoiceUrl: undefined },
    ]);
    expect(failureInvoices(null)).toEqual([]);
  });
});
