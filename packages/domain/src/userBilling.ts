// A customer's monthly billing and automatic suspension, stored in the user's attributes (SPEC §3 User
// "Billing", §4 account states; .tmp/billing-contract.md). Shared by the server (suspension, trust unlock) and
// the web (the user dialog's Billing tab). Error values are i18n keys of the web's users namespace
// ('users:errors.billing.*').
import { z } from 'zod';
import { DEFAULT_NS, attrBool, attrNumber, attrString, nsKey } from './attributes.ts';
import { isValidCpf } from './catalogs.ts';
import type { Attributes } from './types.ts';

export const BILLING_AMOUNT_MODES = ['percentage', 'fixed'] as const;
export type BillingAmountMode = (typeof BILLING_AMOUNT_MODES)[number];

/** The editable billing settings of one user (typed). Numbers are null when not set. */
export interface UserBilling {
  billing: boolean;
  /** CPF (11) or CNPJ (14) digits, '' when none. */
  taxId: string;
  description: string;
  price: number | null;
  dueDay: number | null;
  fine: number | null;
  fineMode: BillingAmountMode;
  interest: number | null;
  discount: number | null;
  discountMode: BillingAmountMode;
  discountDays: number | null;
  autoSuspend: boolean;
  autoSuspendDays: number | null;
  trustUnlock: boolean;
  trustUnlockDays: number | null;
}

/** Attribute names (without the namespace) of each field; the state ones are written by the server only. */
export const USER_BILLING_ATTRIBUTES = {
  billing: 'billing',
  taxId: 'taxId',
  description: 'billingDescription',
  price: 'billingPrice',
  dueDay: 'billingDueDay',
  fine: 'billingFine',
  fineMode: 'billingFineMode',
  interest: 'billingInterest',
  discount: 'billingDiscount',
  discountMode: 'billingDiscountMode',
  discountDays: 'billingDiscountDays',
  autoSuspend: 'autoSuspend',
  autoSuspendDays: 'autoSuspendDays',
  trustUnlock: 'trustUnlock',
  trustUnlockDays: 'trustUnlockDays',
} as const satisfies Record<keyof UserBilling, string>;

export const USER_BILLING_STATE_ATTRIBUTES = {
  suspended: 'suspended',
  trustUntil: 'trustUntil',
  trustUsed: 'trustUsed',
} as const;

export const emptyUserBilling = (): UserBilling => ({
  billing: false,
  taxId: '',
  description: '',
  price: null,
  dueDay: null,
  fine: null,
  fineMode: 'percentage',
  interest: null,
  discount: null,
  discountMode: 'percentage',
  discountDays: null,
  autoSuspend: false,
  autoSuspendDays: null,
  trustUnlock: false,
  trustUnlockDays: null,
});

/** Brazilian CNPJ check digits (14 digits, punctuation ignored). */
export function isValidCnpj(value: string): boolean {
  const d = value.replace(/\D/g, '');
  if (d.length !== 14 || /^(\d)\1{13}$/.test(d)) return false;
  const digit = (len: number) => {
    let sum = 0;
    let w = len - 7;
    for (let i = 0; i < len; i++) {
      sum += Number(d[i]) * w;
      w = w === 2 ? 9 : w - 1;
    }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return digit(12) === Number(d[12]) && digit(13) === Number(d[13]);
}

/** A CPF (11 digits) or CNPJ (14 digits) with valid check digits; punctuation is ignored. */
export function isValidTaxId(value: string): boolean {
  const d = value.replace(/\D/g, '');
  if (/[^\d\s./-]/.test(value)) return false;
  return d.length === 11 ? isValidCpf(d) : d.length === 14 ? isValidCnpj(d) : false;
}

const E = (k: string) => `users:errors.billing.${k}`;
const amount = (key: string) =>
  z
    .number({ error: E(key) })
    .finite(E(key))
    .min(0, E(key))
    .max(1_000_000, E(key))
    .nullable();
const days = (key: string, min: number, max: number) =>
  z
    .number({ error: E(key) })
    .int(E(key))
    .min(min, E(key))
    .max(max, E(key))
    .nullable();
const mode = z.enum(BILLING_AMOUNT_MODES, { error: () => E('mode') });

const fieldsSchema = z.object({
  billing: z.boolean({ error: E('boolean') }),
  taxId: z
    .string({ error: E('taxId') })
    .trim()
    .refine((v) => v === '' || isValidTaxId(v), E('taxId'))
    .transform((v) => v.replace(/\D/g, '')),
  description: z
    .string({ error: E('description') })
    .trim()
    .max(500, E('description')),
  price: z
    .number({ error: E('price') })
    .finite(E('price'))
    .gt(0, E('price'))
    .max(1_000_000, E('price'))
    .nullable(),
  dueDay: days('dueDay', 1, 28),
  fine: amount('fine'),
  fineMode: mode,
  interest: amount('interest').refine((v) => v === null || v <= 100, E('interest')),
  discount: amount('discount'),
  discountMode: mode,
  discountDays: days('discountDays', 0, 365),
  autoSuspend: z.boolean({ error: E('boolean') }),
  autoSuspendDays: days('autoSuspendDays', 1, 3650),
  trustUnlock: z.boolean({ error: E('boolean') }),
  trustUnlockDays: days('trustUnlockDays', 1, 365),
});

/** The rules that join fields; run on the raw input so they report even when another field is malformed. */
function crossFieldProblems(input: unknown): Partial<Record<keyof UserBilling, string>> {
  const v = (input && typeof input === 'object' ? input : {}) as Partial<Record<keyof UserBilling, unknown>>;
  const out: Partial<Record<keyof UserBilling, string>> = {};
  const unset = (x: unknown) => x === null || x === undefined || x === '';
  const need = (ok: boolean, path: keyof UserBilling) => {
    if (!ok) out[path] = E(path);
  };
  if (v.billing === true) {
    need(!unset(v.price), 'price');
    need(!unset(v.dueDay), 'dueDay');
    need(!unset(v.taxId) && String(v.taxId).trim() !== '', 'taxId');
  }
  if (v.fineMode === 'percentage') need(!(typeof v.fine === 'number' && v.fine > 100), 'fine');
  if (v.discountMode === 'percentage')
    need(!(typeof v.discount === 'number' && v.discount > 100), 'discount');
  if (v.autoSuspend === true) need(!unset(v.autoSuspendDays), 'autoSuspendDays');
  if (v.trustUnlock === true) need(!unset(v.trustUnlockDays), 'trustUnlockDays');
  return out;
}

/**
 * The rules: price > 0 and a due day 1..28 when billing is on; a CPF/CNPJ with valid check digits when given
 * (required when billing is on); fine, interest and discount ≥ 0 (percentages ≤ 100); discount days ≥ 0;
 * suspension days ≥ 1 when automatic suspension is on; trust-unlock days ≥ 1 when the trust unlock is on.
 */
export const userBillingSchema = fieldsSchema.superRefine((v, ctx) => {
  for (const [path, message] of Object.entries(crossFieldProblems(v)))
    ctx.addIssue({ code: 'custom', message, path: [path] });
});

export type UserBillingResult =
  { ok: true; billing: UserBilling } | { ok: false; errors: Partial<Record<keyof UserBilling, string>> };

/** Validates typed billing values; errors map each field to its first message key. */
export function validateUserBilling(values: unknown): UserBillingResult {
  const r = userBillingSchema.safeParse(values);
  if (r.success) return { ok: true, billing: r.data };
  const errors: Partial<Record<keyof UserBilling, string>> = {};
  for (const issue of r.error.issues) {
    const k = String(issue.path[0] ?? 'billing') as keyof UserBilling;
    if (!errors[k]) errors[k] = issue.message;
  }
  for (const [k, m] of Object.entries(crossFieldProblems(values)) as [keyof UserBilling, string][])
    if (!errors[k]) errors[k] = m;
  return { ok: false, errors };
}

const readMode = (v: unknown): BillingAmountMode => {
  const s = attrString(v)?.toLowerCase();
  return s === 'fixed' ? 'fixed' : 'percentage';
};
const readNum = (v: unknown) => attrNumber(v) ?? null;

/** The billing settings stored in a user's attributes (missing or malformed values read as unset). */
export function readUserBilling(
  attributes: Attributes | null | undefined,
  ns: string = DEFAULT_NS,
): UserBilling {
  const a = attributes ?? {};
  const g = (k: keyof UserBilling) => a[nsKey(ns, USER_BILLING_ATTRIBUTES[k])];
  return {
    billing: attrBool(g('billing')),
    taxId: (attrString(g('taxId')) ?? '').replace(/\D/g, ''),
    description: attrString(g('description')) ?? '',
    price: readNum(g('price')),
    dueDay: readNum(g('dueDay')),
    fine: readNum(g('fine')),
    fineMode: readMode(g('fineMode')),
    interest: readNum(g('interest')),
    discount: readNum(g('discount')),
    discountMode: readMode(g('discountMode')),
    discountDays: readNum(g('discountDays')),
    autoSuspend: attrBool(g('autoSuspend')),
    autoSuspendDays: readNum(g('autoSuspendDays')),
    trustUnlock: attrBool(g('trustUnlock')),
    trustUnlockDays: readNum(g('trustUnlockDays')),
  };
}

/**
 * The billing attributes of `values` (numbers as JSON numbers, booleans true). Unset values (null, '', false)
 * are absent. Use applyUserBilling to merge into a stored attribute object.
 */
export function writeUserBilling(values: UserBilling, ns: string = DEFAULT_NS): Attributes {
  const out: Attributes = {};
  for (const [field, name] of Object.entries(USER_BILLING_ATTRIBUTES) as [keyof UserBilling, string][]) {
    const v = values[field];
    if (v === null || v === '' || v === false || v === undefined) continue;
    if (field === 'fineMode' && values.fine === null) continue;
    if (field === 'discountMode' && values.discount === null) continue;
    out[nsKey(ns, name)] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}

/** `attributes` with every billing setting replaced by `values` (server-written state is kept). */
export function applyUserBilling(
  attributes: Attributes,
  values: UserBilling,
  ns: string = DEFAULT_NS,
): Attributes {
  const out: Attributes = { ...attributes };
  for (const name of Object.values(USER_BILLING_ATTRIBUTES)) delete out[nsKey(ns, name)];
  return { ...out, ...writeUserBilling(values, ns) };
}

// ---------------------------------------------------------------------------------------------------------------
// Form (numbers typed as text, decimal comma accepted)

export interface UserBillingForm {
  billing: boolean;
  taxId: string;
  description: string;
  price: string;
  dueDay: string;
  fine: string;
  fineMode: BillingAmountMode;
  interest: string;
  discount: string;
  discountMode: BillingAmountMode;
  discountDays: string;
  autoSuspend: boolean;
  autoSuspendDays: string;
  trustUnlock: boolean;
  trustUnlockDays: string;
}

const NUMERIC_FIELDS = [
  'price',
  'dueDay',
  'fine',
  'interest',
  'discount',
  'discountDays',
  'autoSuspendDays',
  'trustUnlockDays',
] as const;

export function userBillingToForm(b: UserBilling): UserBillingForm {
  const f = { ...b } as unknown as UserBillingForm;
  for (const k of NUMERIC_FIELDS) f[k] = b[k] === null ? '' : String(b[k]);
  return f;
}

/** Form ⇒ validated UserBilling. A field that is not a number gets that field's message. */
export function parseUserBillingForm(f: UserBillingForm): UserBillingResult {
  const typed = { ...f } as unknown as Record<string, unknown>;
  const errors: Partial<Record<keyof UserBilling, string>> = {};
  for (const k of NUMERIC_FIELDS) {
    const t = f[k].trim().replace(',', '.');
    if (t === '') typed[k] = null;
    else {
      const n = Number(t);
      if (Number.isFinite(n)) typed[k] = n;
      else errors[k] = E(k);
    }
  }
  const r = validateUserBilling(typed);
  if (r.ok && !Object.keys(errors).length) return r;
  return { ok: false, errors: { ...(r.ok ? {} : r.errors), ...errors } };
}

// ---------------------------------------------------------------------------------------------------------------
// Account state (SPEC §4)

export type AccountBillingState =
  { state: 'active' } | { state: 'suspended' } | { state: 'trust'; trustUntil: string };

/** Suspended, inside a running trust period (trustUntil in the future), or active. */
export function userAccountState(
  attributes: Attributes | null | undefined,
  ns: string = DEFAULT_NS,
  now: Date = new Date(),
): AccountBillingState {
  const a = attributes ?? {};
  if (!attrBool(a[nsKey(ns, USER_BILLING_STATE_ATTRIBUTES.suspended)])) return { state: 'active' };
  const until = attrString(a[nsKey(ns, USER_BILLING_STATE_ATTRIBUTES.trustUntil)]);
  const ms = until ? Date.parse(until) : NaN;
  if (until && Number.isFinite(ms) && ms > now.getTime()) return { state: 'trust', trustUntil: until };
  return { state: 'suspended' };
}

/** Body of POST /{ns}/billing/trust-unlock. */
export const trustUnlockRequestSchema = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .min(1, 'email is required')
    .max(256, 'email is too long'),
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(256, 'password is too long'),
});
export type TrustUnlockRequest = z.infer<typeof trustUnlockRequestSchema>;
