import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INVOICE_INTEGRATION,
  describeZodError,
  integrationKeySchema,
  invoiceCreateSchema,
  invoiceIntegrationSchema,
  isMaskedSecret,
  maskSecret,
  nextDueDate,
  parseInvoiceForm,
  paymentIntegrationSchema,
} from '../src/index.ts';

const err = (r: { success: boolean; error?: Parameters<typeof describeZodError>[0] }) =>
  r.success ? 'ok' : describeZodError(r.error!);

describe('invoiceCreateSchema', () => {
  const ok = { userId: 3, value: 99.9, dueDate: '2026-12-10', description: 'Mensalidade' };
  it('accepts a valid invoice', () => {
    expect(invoiceCreateSchema.parse(ok)).toEqual(ok);
    expect(invoiceCreateSchema.parse({ userId: 3, value: 10, dueDate: '2028-02-29' }).description).toBe('');
  });
  it('refuses value ≤ 0, more than 2 decimals, bad dates, bad users with clear messages', () => {
    expect(err(invoiceCreateSchema.safeParse({ ...ok, value: 0 }))).toBe(
      'value: value must be greater than 0',
    );
    expect(err(invoiceCreateSchema.safeParse({ ...ok, value: -5 }))).toBe(
      'value: value must be greater than 0',
    );
    expect(err(invoiceCreateSchema.safeParse({ ...ok, value: 1.234 }))).toBe(
      'value: value has at most 2 decimals',
    );
    expect(err(invoiceCreateSchema.safeParse({ ...ok, value: '10' }))).toBe('value: value must be a number');
    expect(err(invoiceCreateSchema.safeParse({ ...ok, dueDate: '10/12/2026' }))).toBe(
      'dueDate: dueDate must be a date (YYYY-MM-DD)',
    );
    expect(err(invoiceCreateSchema.safeParse({ ...ok, dueDate: '2026-02-30' }))).toBe(
      'dueDate: dueDate is not a valid calendar date',
    );
    expect(err(invoiceCreateSchema.safeParse({ ...ok, userId: 0 }))).toBe('userId: userId must be positive');
  });
});

describe('integrations', () => {
  it('knows the keys payment and invoice only', () => {
    expect(integrationKeySchema.parse('payment')).toBe('payment');
    expect(err(integrationKeySchema.safeParse('email'))).toBe(
      'unknown integration key (expected payment or invoice)',
    );
  });
  it('validates the payment provider', () => {
    const p = {
      key: 'payment',
      provider: 'asaas',
      sandbox: true,
      apiKey: ' $aact_123 ',
      webhookToken: 'tok',
    };
    expect(paymentIntegrationSchema.parse(p).apiKey).toBe('$aact_123');
    expect(err(paymentIntegrationSchema.safeParse({ ...p, provider: 'stripe' }))).toBe(
      'provider: provider must be none or asaas',
    );
    expect(err(paymentIntegrationSchema.safeParse({ ...p, sandbox: 'yes' }))).toBe(
      'sandbox: sandbox must be true or false',
    );
  });
  it('validates invoice defaults (due day 1-28, percentages up to 100)', () => {
    const d = { ...DEFAULT_INVOICE_INTEGRATION, fine: 2, interest: 1, discount: 5, discountDays: 3 };
    expect(invoiceIntegrationSchema.parse(d)).toEqual(d);
    expect(err(invoiceIntegrationSchema.safeParse({ ...d, firstDueDay: 31 }))).toBe(
      'firstDueDay: firstDueDay must be between 1 and 28',
    );
    expect(err(invoiceIntegrationSchema.safeParse({ ...d, fine: 150 }))).toBe(
      'fine: a percentage fine must be at most 100',
    );
    expect(invoiceIntegrationSchema.safeParse({ ...d, fine: 150, fineMode: 'FIXED' }).success).toBe(true);
    expect(err(invoiceIntegrationSchema.safeParse({ ...d, interest: -1 }))).toBe(
      'interest: interest must not be negative',
    );
  });
  it('masks secrets to their last 4 characters', () => {
    expect(maskSecret('$aact_abcdef1234')).toBe('••••1234');
    expect(maskSecret('abc')).toBe('••••');
    expect(maskSecret('')).toBe('');
    expect(isMaskedSecret('••••1234')).toBe(true);
    expect(isMaskedSecret('new-key')).toBe(false);
  });
});

describe('parseInvoiceForm', () => {
  it('accepts a decimal comma and reports errors by field', () => {
    const r = parseInvoiceForm({ userId: 4, value: '1.234,50', dueDate: '2026-12-10', description: '' });
    expect(r).toEqual({
      ok: true,
      value: { userId: 4, value: 1234.5, dueDate: '2026-12-10', description: '' },
    });
    const bad = parseInvoiceForm({ userId: null, value: '0', dueDate: '', description: '' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.errors).sort()).toEqual(['dueDate', 'userId', 'value']);
    const text = parseInvoiceForm({ userId: 4, value: 'abc', dueDate: '2026-12-10', description: '' });
    expect(text.ok ? '' : text.errors.value).toBe('value must be a number');
  });
  it('computes the next due date on the first due day', () => {
    expect(nextDueDate('2026-11-22', 10)).toBe('2026-12-10');
    expect(nextDueDate('2026-11-05', 10)).toBe('2026-11-10');
    expect(nextDueDate('2026-12-22', 5)).toBe('2027-01-05');
  });
});
