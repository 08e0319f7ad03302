// The gate's server flags and the resellers' walks read on the store's read pool (issue #30, session 35, H30x):
// traccar/access.ts serverFlagsAsync (under checkWrite, checkRestriction, restricted, serverSwitch,
// serverAttribute), the refusal language's server attributes (refusal.ts, kept from the request's own read) and
// resellers.ts' subtree walks. A flag, an attribute or a managedUser link written behind the API (straight in the
// store, as another process or connection does) is honoured on the next request, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import { qb, rowAsync, writeAsync } from '../../src/db/repos/query.ts';
import { api, createUser, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Server columns written straight in the store: no route, no cache told. */
async function serverBehind(values: { readonly?: number; registration?: number }): Promise<void> {
  const db = t.ctx.store.sql;
  await writeAsync(db, qb(db).updateTable('server').set(values).where('id', '=', 1));
}

/** Server attributes merged and written straight in the store. */
async function attributesBehind(values: Record<string, unknown>): Promise<void> {
  const db = t.ctx.store.sql;
  const stored = await rowAsync(db, qb(db).selectFrom('server').select('attributes').where('id', '=', 1));
  const attributes = { ...(JSON.parse(stored?.attributes || '{}') as Record<string, unknown>), ...values };
  await writeAsync(
    db,
    qb(db)
      .updateTable('server')
      .set({ attributes: JSON.stringify(attributes) })
      .where('id', '=', 1),
  );
}

const geofence = (cookie: string) =>
  api(t.app, cookie, 'POST', '/api/geofences', {
    name: `Flags ${Math.random()}`,
    area: 'CIRCLE (-23.5 -46.6, 100)',
  });

describe('server flags written behind the API', () => {
  it('readonly set in the store refuses the next write; cleared, the next write passes', async () => {
    const u = await createUser(t);
    expectStatus(await geofence(u.cookie), 200);
    await serverBehind({ readonly: 1 });
    try {
      const refused = await geofence(u.cookie);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('Write access denied');
      expectStatus(await geofence(t.admin), 200); // administrators: no restriction
    } finally {
      await serverBehind({ readonly: 0 });
    }
    expectStatus(await geofence(u.cookie), 200);
  });

  it('registration switched in the store is honoured by the next sign-up', async () => {
    const signUp = () =>
      api(t.app, null, 'POST', '/api/users', {
        name: 'Self',
        email: `self-${Math.random()}@flags.test`,
        password: 'secret-123',
      });
    await serverBehind({ registration: 0 });
    const off = await signUp();
    expect(off.statusCode).toBe(400);
    expect(off.body).toContain('Registration disabled');
    await serverBehind({ registration: 1 });
    expectStatus(await signUp(), 200);
    await serverBehind({ registration: 0 });
  });

  it('a server switch (totpEnable) written in the store is honoured on the next request', async () => {
    const key = () => api(t.app, null, 'POST', '/api/users/totp');
    await attributesBehind({ totpEnable: false });
    expect((await key()).body).toContain('One-time password is disabled');
    await attributesBehind({ totpEnable: true });
    expect((await key()).statusCode).toBe(200);
    await attributesBehind({ totpEnable: false });
    expect((await key()).statusCode).toBe(400);
  });

  it("a refusal without the caller's language is written in the server's language as just read", async () => {
    const u = await createUser(t); // no language of its own; api() sends no Accept-Language
    const self = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, u.cookie, 'GET', `/api/users/${u.id}`),
      200,
    );
    const lang = `${t.ctx.config.ns}.lang`;
    const field = `${t.ctx.config.ns}.advancedPerms`;
    const protectedEdit = () =>
      api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, {
        ...self,
        attributes: { ...self.attributes, [field]: 'f'.repeat(32) },
      });
    for (const locale of ['es', 'en-US', 'pt-BR'] as const) {
      await attributesBehind({ [lang]: locale });
      const res = await protectedEdit();
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe(
        `SecurityException: ${formatMessage('denied.protectedField', locale, { field })}`,
      );
    }
  });
});

describe("resellers' walks after a link written behind the API", () => {
  it('a user linked below a reseller’s sub-user is managed by the reseller on the next request', async () => {
    const ns = t.ctx.config.ns;
    const reseller = await createUser(t, { userLimit: 10, attributes: { [`${ns}.reseller`]: true } });
    const middle = await createUser(t, { userLimit: 5 });
    const below = await createUser(t);
    const db = t.ctx.store.sql;
    const linkBehind = (ownerId: number, propertyId: number) =>
      writeAsync(
        db,
        qb(db)
          .insertInto('links')
          .values({ ownerType: 'user', ownerId, propertyType: 'managedUser', propertyId }),
      );
    await linkBehind(reseller.id, middle.id);
    const get = () => api(t.app, reseller.cookie, 'GET', `/api/users/${below.id}`);
    expect((await get()).statusCode).toBe(400);
    await linkBehind(middle.id, below.id);
    expect(expectStatus<{ id: number }>(await get(), 200).id).toBe(below.id);
    const listed = expectStatus<{ id: number }[]>(
      await api(t.app, reseller.cookie, 'GET', '/api/users'),
      200,
    );
    expect(listed.map((u) => u.id)).toEqual(expect.arrayContaining([middle.id, below.id]));
  });
});
