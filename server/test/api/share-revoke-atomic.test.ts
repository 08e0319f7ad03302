// Sessions, tokens and shares written asynchronously (issue #30, session 32; docs/decisions/41): a share's revoke is
// one asynchronous transaction (token revoked, the sessions it opened deleted, the row deleted), so a revoke that
// fails half way stores nothing — the token still logs in, its session still works, the share is still listed — and
// the next one goes through; a password reset replaces the user's older reset tokens in one transaction too. Run on
// both stores: a trigger made by the test refuses the last statement (a DELETE of shares, an INSERT of
// password_resets) after the earlier ones ran in the same transaction.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPasswordResetAsync, replacePasswordReset } from '../../src/db/repos/sessions.ts';
import { findUserByIdAsync } from '../../src/db/repos/users.ts';
import { createShare, revokeShare } from '../../src/traccar/share.ts';
import { api, createDevice, createUser, expectStatus, makeTestApp, type TestApp } from '../helpers/app.ts';
import { storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { count, one } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

const REFUSED = 'refused by the test';

/** Runs `fn` while a trigger refuses every `event` (DELETE, INSERT) on `table`, on the test's own store. */
async function whileRefused(
  table: string,
  event: 'DELETE' | 'INSERT',
  fn: () => Promise<void>,
): Promise<void> {
  const name = `h30n_refuse_${table}`;
  if (!TEST_DATABASE_URL) {
    const db = t.ctx.store.sql;
    db.exec(
      `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} BEGIN SELECT RAISE(ABORT, '${REFUSED}'); END`,
    );
    try {
      await fn();
    } finally {
      db.exec(`DROP TRIGGER ${name}`);
    }
    return;
  }
  const client = postgres((await storeEnv(t.dir)).DATABASE_URL!, { max: 1, onnotice: () => undefined });
  try {
    await client.unsafe(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${REFUSED}'; END $$`,
    );
    await client.unsafe(
      `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
    try {
      await fn();
    } finally {
      await client.unsafe(`DROP TRIGGER ${name} ON ${table}`);
      await client.unsafe(`DROP FUNCTION ${name}()`);
    }
  } finally {
    await client.end({ timeout: 1 });
  }
}

describe('a share revoke is one transaction', () => {
  it('failing half way stores nothing: the token and its session still work; then it revokes everything', async () => {
    const owner = await createUser(t, { administrator: true });
    const device = await createDevice(t, { name: 'Shared car' });
    const db = t.ctx.store.sql;
    const share = await createShare(
      t.ctx,
      (await findUserByIdAsync(db, owner.id))!,
      { type: 'device', id: device.id },
      new Date(Date.now() + 3_600_000),
    );
    const signIn = await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(share.token)}`);
    expectStatus(signIn, 200);
    const guestCookie = `JSESSIONID=${signIn.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    const tokenId = (await one(db, (q) =>
      q.selectFrom('shares').select('tokenId').where('id', '=', share.id),
    ))!.tokenId;
    expect(await count(db, 'sessions', { tokenId })).toBe(1);

    await whileRefused('shares', 'DELETE', async () => {
      await expect(revokeShare(t.ctx, share.id)).rejects.toThrow(REFUSED);
    });
    // the token's revoke and its sessions' delete ran before the refused DELETE: rolled back with it
    expect(await one(db, (q) => q.selectFrom('tokens').select('revoked').where('id', '=', tokenId))).toEqual({
      revoked: 0,
    });
    expect(await count(db, 'sessions', { tokenId })).toBe(1);
    expect(await count(db, 'shares', { id: share.id })).toBe(1);
    expectStatus(await api(t.app, guestCookie, 'GET', '/api/session'), 200);
    expectStatus(await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(share.token)}`), 200);

    await revokeShare(t.ctx, share.id);
    expect(await one(db, (q) => q.selectFrom('tokens').select('revoked').where('id', '=', tokenId))).toEqual({
      revoked: 1,
    });
    expect(await count(db, 'sessions', { tokenId })).toBe(0);
    expect(await count(db, 'shares', { id: share.id })).toBe(0);
    expect((await api(t.app, guestCookie, 'GET', '/api/session')).statusCode).toBe(404);
    expect(
      (await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(share.token)}`)).statusCode,
    ).toBe(401);
  });
});

describe('a password reset replaces the older ones in one transaction', () => {
  it('a refused insert keeps the older reset token; the next one replaces it', async () => {
    const user = await createUser(t);
    const db = t.ctx.store.sql;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await replacePasswordReset(db, 'h30n-first', user.id, until);
    expect(await findPasswordResetAsync(db, 'h30n-first')).toEqual({ userId: user.id, expiresAt: until });

    await whileRefused('password_resets', 'INSERT', async () => {
      await expect(replacePasswordReset(db, 'h30n-second', user.id, until)).rejects.toThrow(REFUSED);
    });
    // the DELETE of the user's older tokens ran first: rolled back with the refused INSERT
    expect(await findPasswordResetAsync(db, 'h30n-first')).toEqual({ userId: user.id, expiresAt: until });
    expect(await findPasswordResetAsync(db, 'h30n-second')).toBeUndefined();

    await replacePasswordReset(db, 'h30n-third', user.id, until);
    expect(await findPasswordResetAsync(db, 'h30n-first')).toBeUndefined();
    expect(await findPasswordResetAsync(db, 'h30n-third')).toEqual({ userId: user.id, expiresAt: until });
  });
});
