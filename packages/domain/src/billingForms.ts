// Billing input shared by the server and the web (SPEC §3 Integration, Invoice; §7 client A integrations):
// the `payment` (provider) and `invoice` (defaults) integrations, the invoice creation form, masked secrets.
import { z } from 'zod';
import type { InvoiceStatus } from './billing.ts';

export const INTEGRATION_KEYS = ['payment', 'invoice'] as const;
export type IntegrationKey = (typeof INTEGRATION_KEYS)[number];

export const integrationKeySchema = z.enum(INTEGRATION_KEYS, {
  error: () => `unknown integration key (expected ${INTEGRATION_KEYS.join(' or ')})`,
});

export const PAYMENT_PROVIDERS = ['none', 'asaas'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
export const AMOUNT_MODES = ['PERCENTAGE', 'FIXED'] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];

const secret = z.string().trim().max(300, 'at most 300 characters');
const amount = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .finite(`${what} must be a number`)
    .min(0, `${what} must not be negative`)
    .max(1_000_000, `${what} is too large`);

/** The payment provider: Asaas (production or sandbox) with its API key and the webhook's access token. */
export const paymentIntegrationSchema = z.object({
  key: z.literal('payment'),
  provider: z.enum(PAYMENT_PROVIDERS, { error: () => 'provider must be none or asaas' }),
  sandbox: z.boolean({ error: 'sandbox must be true or false' }),
  apiKey: secret,
  webhookToken: secret,
});
export type PaymentIntegration = z.infer<typeof paymentIntegrationSchema>;

/** Invoice defaults: first due day of the month, description, fine, interest (% per month) and discount. */
export const invoiceIntegrationSchema = z
  .object({
    key: z.literal('invoice'),
    firstDueDay: z
      .number({ error: 'firstDueDay must be a number' })
      .int('firstDueDay must be a whole number')
      .min(1, 'firstDueDay must be between 1 and 28')
      .max(28, 'firstDueDay must be between 1 and 28'),
    description: z.string().trim().max(500, 'at most 500 characters'),
    fine: amount('fine'),
    fineMode: z.enum(AMOUNT_MODES, { error: () => 'fineMode must be PERCENTAGE or FIXED' }),
    interest: amount('interest').max(100, 'interest must be at most 100 (% per month)'),
    discount: amount('discount'),
    discountMode: z.enum(AMOUNT_MODES, { error: () => 'discountMode must be PERCENTAGE or FIXED' }),
    discountDays: z
      .number({ error: 'discountDays must be a number' })
      .int('discountDays must be a whole number')
      .min(0, 'discountDays must not be negative')
      .max(365, 'discountDays must be at most 365'),
  })
  .refine((v) => v.fineMode !== 'PERCENTAGE' || v.fine <= 100, {
    message: 'a percentage fine must be at most 100',
    path: ['fine'],
  })
  .refine((v) => v.discountMode !== 'PERCENTAGE' || v.discount <= 100, {
    message: 'a percentage discount must be at most 100',
    path: ['discount'],
  });
export type InvoiceIntegration = z.infer<typeof invoiceIntegrationSchema>;

export type Integration = PaymentIntegration | InvoiceIntegration;

export const DEFAULT_PAYMENT_INTEGRATION: PaymentIntegration = {
  key: 'payment',
  provider: 'none',
  sandbox: true,
  apiKey: '',
  webhookToken: '',
};
export const DEFAULT_INVOICE_INTEGRATION: InvoiceIntegration = {
  key: 'invoice',
  firstDueDay: 10,
  description: '',
  fine: 0,
  fineMode: 'PERCENTAGE',
  interest: 0,
  discount: 0,
  discountMode: 'PERCENTAGE',
  discountDays: 0,
};

/** The schema of one integration key. */
export function integrationSchema(key: IntegrationKey) {
  return key === 'payment' ? paymentIntegrationSchema : invoiceIntegrationSchema;
}

const MASK = '••••';

/** A secret as shown to clients: its last 4 characters only ('' stays ''). */
export function maskSecret(s: string): string {
  if (!s) return '';
  return `${MASK}${s.length > 4 ? s.slice(-4) : ''}`;
}

/** Whether a value is a masked secret sent back unchanged (the stored one is then kept). */
export function isMaskedSecret(s: string): boolean {
  return s.startsWith(MASK);
}

/** A calendar date YYYY-MM-DD that exists (2026-02-30 does not). */
export const isoDate = z
  .string({ error: 'dueDate must be a date (YYYY-MM-DD)' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'dueDate must be a date (YYYY-MM-DD)')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'dueDate is not a valid calendar date');

/** POST /{ns}/invoices body (admin). Value in the server currency, > 0, at most 2 decimals. */
export const invoiceCreateSchema = z.object({
  userId: z
    .number({ error: 'userId must be a number' })
    .int('userId must be a whole number')
    .positive('userId must be positive'),
  value: z
    .number({ error: 'value must be a number' })
    .finite('value must be a number')
    .gt(0, 'value must be greater than 0')
    .max(1_000_000, 'value is too large')
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'value has at most 2 decimals'),
  dueDate: isoDate,
  description: z.string().trim().max(500, 'description: at most 500 characters').default(''),
});
export type InvoiceCreate = z.infer<typeof invoiceCreateSchema>;

/** An invoice as the API returns it. */
export interface Invoice {
  id: number;
  userId: number;
  dueDate: string;
  value: number;
  status: InvoiceStatus;
  paidDate: string | null;
  description: string;
  /** The provider's payment page, when a provider issued the charge. */
  invoiceUrl: string | null;
  externalId: string | null;
  createdAt: string;
}

/** Form values of the web's invoice form (strings as typed). */
export interface InvoiceFormValues {
  userId: number | null;
  value: string;
  dueDate: string;
  description: string;
}

/** Parses the invoice form: a decimal comma is accepted ("99,90"). Errors by field, as zod messages. */
export function parseInvoiceForm(
  v: InvoiceFormValues,
): { ok: true; value: InvoiceCreate } | { ok: false; errors: Record<string, string> } {
  const raw = v.value.trim().replace(/\s/g, '');
  const normalized = raw.includes(',') ? raw.replace(/\./g, '').replace(',', '.') : raw;
  const value = normalized === '' || !/^-?\d+(\.\d+)?$/.test(normalized) ? NaN : Number(normalized);
  const r = invoiceCreateSchema.safeParse({
    userId: v.userId ?? 0,
    value,
    dueDate: v.dueDate,
    description: v.description,
  });
  if (r.success) return { ok: true, value: r.data };
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const k = String(issue.path[0] ?? 'form');
    errors[k] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The first due date on or after `from` (YYYY-MM-DD) falling on `day` of a month (1-28). */
export function nextDueDate(from: string, day: number): string {
  const [y, m, d] = from.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1 + (d > day ? 1 : 0), day));
  return date.toISOString().slice(0, 10);
}
