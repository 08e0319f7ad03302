// Property test: whatever a non-administrator sends when it PUTs its own user (random attribute maps mixing the
// protected role and billing attributes with free ones, random flag and limit values), the protected fields
// (domain PROTECTED_USER_FIELDS, role and billing attributes) read back unchanged, and no answer is a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTECTED_USER_FIELDS, billingAttributeKeys, roleAttributeKeys } from '@rastro/domain';
import { api, createUser, makeTestApp, type CreatedUser, type TestApp } from '../helpers/index.ts';
import { first, update } from '../support/testSql.ts';

const RUNS = { numRuns: Number(process.env.FUZZ_RUNS ?? 150) };
const PROTECTED_ATTRIBUTES = [...roleAttributeKeys('rastro'), ...billingAttributeKeys('rastro')];

const attrValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 1000 }),
  fc.string({ maxLength: 40 }),
  fc.constant('ffffffffffffffffffffffffffffffff'),
);
const attributeMap = fc.dictionary(
  fc.oneof(fc.constantFrom(...PROTECTED_ATTRIBUTES), fc.string({ minLength: 1, maxLength: 12 })),
  attrValue,
  { maxKeys: 8 },
);
const flagChanges = fc.record(
  {
    administrator: fc.boolean(),
    readonly: fc.boolean(),
    deviceReadonly: fc.boolean(),
    limitCommands: fc.boolean(),
    disabled: fc.boolean(),
    userLimit: fc.integer({ min: -1, max: 50 }),
    deviceLimit: fc.integer({ min: -1, max: 50 }),
    expirationTime: fc.oneof(
      fc.constant(null),
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    ),
  },
  { requiredKeys: [...PROTECTED_USER_FIELDS] },
);

/** One or two fields changed at a time (so that a single protected change is not hidden by a refused one). */
const someFlags = fc
  .tuple(flagChanges, fc.subarray([...PROTECTED_USER_FIELDS], { minLength: 0, maxLength: 2 }))
  .map(([values, keys]) =>
    Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k as keyof typeof values]])),
  );

describe('fuzz: self-PUT never changes a protected field', () => {
  let t: TestApp;
  const roles: Record<string, CreatedUser> = {};
  beforeAll(async () => {
    t = await makeTestApp();
    await update(
      t.ctx.store.sql,
      'server',
      { attributes: JSON.stringify({ 'rastro.enableAdvancedPerms': true }) },
      { id: 1 },
    );
    roles.plain = await createUser(t, { attributes: { 'rastro.advancedPerms': '00ff'.repeat(8) } });
    roles.qrDriver = await createUser(t, { attributes: { 'rastro.isQrDriverId': 3 } });
    roles.manager = await createUser(t, {
      userLimit: 5,
      expirationTime: '2099-01-01T00:00:00.000Z',
      attributes: { 'rastro.billing': true, 'rastro.billingPrice': 50 },
    });
    roles.readonly = await createUser(t, { readonly: true });
  });
  afterAll(async () => t.close());

  const snapshot = async (id: number) => {
    const row = (await first(t.ctx.store.sql, 'users', { id })) as Record<string, unknown> & {
      attributes: string;
    };
    const attrs = JSON.parse(row.attributes) as Record<string, unknown>;
    return {
      fields: Object.fromEntries(PROTECTED_USER_FIELDS.map((f) => [f, row[f]])),
      attributes: Object.fromEntries(PROTECTED_ATTRIBUTES.map((k) => [k, attrs[k]])),
    };
  };

  it('random attribute maps and flag values', async () => {
    const before = Object.fromEntries(
      await Promise.all(Object.entries(roles).map(async ([r, u]) => [r, await snapshot(u.id)] as const)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(roles)),
        attributeMap,
        someFlags,
        fc.boolean(),
        async (role, attributes, flags, keepStored) => {
          const u = roles[role];
          const self = (await api(t.app, u.cookie, 'GET', `/api/users/${u.id}`)).json<
            Record<string, unknown> & { attributes: Record<string, unknown> }
          >();
          const res = await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, {
            ...self,
            ...flags,
            attributes: keepStored ? { ...self.attributes, ...attributes } : attributes,
          });
          expect(res.statusCode).toBeLessThan(500);
          expect(await snapshot(u.id)).toEqual(before[role]);
        },
      ),
      RUNS,
    );
  });
});
