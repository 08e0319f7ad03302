import { describe, expect, it } from 'vitest';
import {
  applyUserBilling,
  emptyUserBilling,
  isValidCnpj,
  isValidTaxId,
  parseUserBillingForm,
  readUserBilling,
  trustUnlockRequestSchema,
  userAccountState,
  userBillingToForm,
  validateUserBilling,
  writeUserBilling,
  type UserBilling,
} from '../src/index.ts';

const full: UserBilling = {
  billing: true,
  taxId: '52998224725',
  description: 'Rastreamento mensal',
  price: 49.9,
  dueDay: 10,
  fine: 2,
  fineMode: 'percentage',
  interest: 1,
  discount: 5,
  discountMode: 'fixed',
  discountDays: 3,
  autoSuspend: true,
  autoSuspendDays: 15,
  trustUnlock: true,
  trustUnlockDays: 3,
};

describe('tax id (CPF / CNPJ check digits)', () => {
  it('accepts valid CPF and CNPJ with or without punctuation', () => {
    expect(isValidTaxId('529.982.247-25')).toBe(true);
    expect(isValidTaxId('52998224725')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidTaxId('11222333000181')).toBe(true);
  });
  it('rejects wrong check digits, repeated digits, other lengths and letters', () => {
    expect(isValidTaxId('529.982.247-24')).toBe(false);
    expect(isValidTaxId('11.222.333/0001-82')).toBe(false);
    expect(isValidTaxId('11.222.333/0001-91')).toBe(false);
    expect(isValidTaxId('111.111.111-11')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    expect(isValidTaxId('1234567890')).toBe(false);
    expect(isValidTaxId('5299822472a5')).toBe(false);
  });
});

describe('validateUserBilling', () => {
  it('accepts the full settings and keeps only the tax id digits', () => {
    const r = validateUserBilling({ ...full, taxId: '529.982.247-25' });
    expect(r).toEqual({ ok: true, billing: full });
  });
  it('billing off with nothing set is valid', () => {
    expect(validateUserBilling(emptyUserBilling()).ok).toBe(true);
  });
  it('billing on needs price > 0, a due day 1..28 and a tax id', () => {
    const r = validateUserBilling({ ...emptyUserBilling(), billing: true });
    expect(r).toEqual({
      ok: false,
      errors: {
        price: 'users:errors.billing.price',
        dueDay: 'users:errors.billing.dueDay',
        taxId: 'users:errors.billing.taxId',
      },
    });
    const zero = validateUserBilling({ ...full, price: 0, dueDay: 29 });
    expect(zero.ok ? {} : zero.errors).toEqual({
      price: 'users:errors.billing.price',
      dueDay: 'users:errors.billing.dueDay',
    });
    expect(validateUserBilling({ ...full, dueDay: 0 }).ok).toBe(false);
    expect(validateUserBilling({ ...full, dueDay: 28 }).ok).toBe(true);
    expect(validateUserBilling({ ...full, dueDay: 1 }).ok).toBe(true);
  });
  it('bad tax id, modes, negative amounts and days give the field message', () => {
    const r = validateUserBilling({
      ...full,
      taxId: '123.456.789-00',
      fineMode: 'half' as never,
      interest: -1,
      discount: 101,
      discountMode: 'percentage',
      discountDays: -1,
    });
    expect(r.ok ? {} : r.errors).toEqual({
      taxId: 'users:errors.billing.taxId',
      fineMode: 'users:errors.billing.mode',
      interest: 'users:errors.billing.interest',
      discount: 'users:errors.billing.discount',
      discountDays: 'users:errors.billing.discountDays',
    });
  });
  it('percentage fine ≤ 100, a fixed fine may be larger', () => {
    expect(validateUserBilling({ ...full, fine: 150, fineMode: 'percentage' }).ok).toBe(false);
    expect(validateUserBilling({ ...full, fine: 150, fineMode: 'fixed' }).ok).toBe(true);
  });
  it('automatic suspension and trust unlock need their days ≥ 1 when on', () => {
    const r = validateUserBilling({ ...full, autoSuspendDays: null, trustUnlockDays: 0 });
    expect(r.ok ? {} : r.errors).toEqual({
      autoSuspendDays: 'users:errors.billing.autoSuspendDays',
      trustUnlockDays: 'users:errors.billing.trustUnlockDays',
    });
    expect(
      validateUserBilling({
        ...full,
        autoSuspend: false,
        autoSuspendDays: null,
        trustUnlock: false,
        trustUnlockDays: null,
      }).ok,
    ).toBe(true);
  });
  it('discount days 0 (on the due date) is valid; whole numbers only', () => {
    expect(validateUserBilling({ ...full, discountDays: 0 }).ok).toBe(true);
    expect(validateUserBilling({ ...full, discountDays: 1.5 }).ok).toBe(false);
  });
});

describe('read / write attributes', () => {
  it('writes the contract attribute names with JSON numbers', () => {
    expect(writeUserBilling(full, 'rastro')).toEqual({
      'rastro.billing': true,
      'rastro.taxId': '52998224725',
      'rastro.billingDescription': 'Rastreamento mensal',
      'rastro.billingPrice': 49.9,
      'rastro.billingDueDay': 10,
      'rastro.billingFine': 2,
      'rastro.billingFineMode': 'percentage',
      'rastro.billingInterest': 1,
      'rastro.billingDiscount': 5,
      'rastro.billingDiscountMode': 'fixed',
      'rastro.billingDiscountDays': 3,
      'rastro.autoSuspend': true,
      'rastro.autoSuspendDays': 15,
      'rastro.trustUnlock': true,
      'rastro.trustUnlockDays': 3,
    });
  });
  it('round trips under another namespace', () => {
    expect(readUserBilling(writeUserBilling(full, 'acme'), 'acme')).toEqual(full);
    expect(readUserBilling(writeUserBilling(full, 'acme'), 'rastro')).toEqual(emptyUserBilling());
  });
  it('reads strings written by other tools and ignores malformed numbers', () => {
    const b = readUserBilling({
      'rastro.billing': 'true',
      'rastro.billingPrice': '79.5',
      'rastro.billingDueDay': 'x',
      'rastro.billingFineMode': 'FIXED',
    });
    expect(b.billing).toBe(true);
    expect(b.price).toBe(79.5);
    expect(b.dueDay).toBeNull();
    expect(b.fineMode).toBe('fixed');
  });
  it('applyUserBilling replaces settings, keeps other attributes and the server state', () => {
    const stored = {
      keep: 1,
      ...writeUserBilling(full),
      'rastro.suspended': true,
      'rastro.trustUsed': true,
    };
    const off = applyUserBilling(stored, { ...emptyUserBilling(), taxId: '11222333000181' });
    expect(off).toEqual({
      keep: 1,
      'rastro.taxId': '11222333000181',
      'rastro.suspended': true,
      'rastro.trustUsed': true,
    });
  });
});

describe('form', () => {
  it('text ⇒ numbers with a decimal comma; round trip', () => {
    const f = userBillingToForm(full);
    expect(f.price).toBe('49.9');
    expect(parseUserBillingForm({ ...f, price: '49,9' })).toEqual({ ok: true, billing: full });
  });
  it('non-numbers and empty required fields give messages', () => {
    const r = parseUserBillingForm({ ...userBillingToForm(full), price: 'abc', autoSuspendDays: '' });
    expect(r.ok ? {} : r.errors).toEqual({
      price: 'users:errors.billing.price',
      autoSuspendDays: 'users:errors.billing.autoSuspendDays',
    });
  });
});

describe('account state', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  it('active, suspended, trust until a future date', () => {
    expect(userAccountState({}, 'rastro', now)).toEqual({ state: 'active' });
    expect(userAccountState({ 'rastro.suspended': true }, 'rastro', now)).toEqual({ state: 'suspended' });
    expect(
      userAccountState(
        { 'rastro.suspended': true, 'rastro.trustUntil': '2026-11-25T10:00:00.000Z' },
        'rastro',
        now,
      ),
    ).toEqual({ state: 'trust', trustUntil: '2026-11-25T10:00:00.000Z' });
    expect(
      userAccountState(
        { 'rastro.suspended': true, 'rastro.trustUntil': '2026-11-20T10:00:00.000Z' },
        'rastro',
        now,
      ),
    ).toEqual({ state: 'suspended' });
  });
  it('trust unlock body', () => {
    expect(trustUnlockRequestSchema.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true);
    expect(trustUnlockRequestSchema.safeParse({ email: ' ', password: 'x' }).success).toBe(false);
  });
});
