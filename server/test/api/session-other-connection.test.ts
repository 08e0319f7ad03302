// Sign-in and sessions read on the read pool (issue #30, session 34, H30v): a session ended, a token revoked or a
// password changed by another connection (another server process, an operator's SQL) is honoured on the very next
// request, with no cache in between, on both stores. "Another connection" is a second connection to the same
// database: better-sqlite3 on the SQLite file, postgres.js on the test's PostgreSQL schema.
import BetterSqlite3 from 'better-sqlite3';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, hashPassword } from '../../src/traccar/passwordHash.ts';
import { api, createUser, expectStatus, login, makeTestApp, postForm, type TestApp } from '../helpers/app.ts';
import { storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

let t: TestApp;
/** Runs one statement on another connection to the test's store (`?` placeholders, turned into `$n` on PostgreSQL). */
let behind: (text: string, values: unknown[]) => Promise<void>;
let closeBehind: () => Promise<void>;

beforeAll(async () => {
  t = await makeTestApp();
  if (TEST_DATABASE_URL) {
    const client = postgres((await storeEnv(t.dir)).DATABASE_URL!, { max: 1, onnotice: () => undefined });
    behind = async (text, values) => {
      let n = 0;
      await client.unsafe(
        text.replace(/\?/g, () => `$${++n}`),
        values as never[],
      );
    };
    closeBehind = () => client.end({ timeout: 1 });
  } else {
    const other = new BetterSqlite3(t.ctx.config.sqliteFile);
    other.pragma('busy_timeout = 5000');
    behind = async (text, values) => {
      other.prepare(text).run(...values);
    };
    closeBehind = async () => {
      other.close();
    };
  }
});
afterAll(async () => {
  await closeBehind?.();
  await t?.close();
});

const basic = (account: string, password: string) =>
  `Basic ${Buffer.from(`${account}:${password}`).toString('base64')}`;

const sessionIdOf = (cookie: string) => /JSESSIONID=([^;]+)/.exec(cookie)![1];

describe('changes made by another connection, honoured on the next request', () => {
  it('a cookie session deleted behind the server: the next request is anonymous', async () => {
    const user = await createUser(t);
    expect((await api(t.app, user.cookie, 'GET', '/api/session')).statusCode).toBe(200);
    await behind('DELETE FROM sessions WHERE id = ?', [sessionIdOf(user.cookie)]);
    expect((await api(t.app, user.cookie, 'GET', '/api/session')).statusCode).toBe(404);
    expect((await api(t.app, user.cookie, 'GET', '/api/devices')).statusCode).toBe(401);
  });

  it('a session expired behind the server: the next request is anonymous', async () => {
    const user = await createUser(t);
    const past = new Date(Date.now() - 60_000).toISOString();
    await behind('UPDATE sessions SET "expiresAt" = ? WHERE id = ?', [past, sessionIdOf(user.cookie)]);
    expect((await api(t.app, user.cookie, 'GET', '/api/session')).statusCode).toBe(404);
  });

  it('a token revoked behind the server: bearer requests and GET /api/session?token= refuse it', async () => {
    const user = await createUser(t);
    const res = await postForm(t.app, user.cookie, '/api/session/token', {});
    expect(res.statusCode).toBe(200);
    const token = res.body;
    const bearer = { authorization: `Bearer ${token}` };
    const devices = () => t.app.inject({ method: 'GET', url: '/api/devices', headers: bearer });
    expect((await devices()).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/session?token=${encodeURIComponent(token)}` }))
        .statusCode,
    ).toBe(200);
    await behind('UPDATE tokens SET revoked = 1 WHERE id = ?', [sha256(token)]);
    expect((await devices()).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/session?token=${encodeURIComponent(token)}` }))
        .statusCode,
    ).toBe(401);
    // and the revoke form reads it as stored: still the caller's token, revoked again without error
    const again = await postForm(t.app, user.cookie, '/api/session/token/revoke', { token });
    expect(again.statusCode).toBe(204);
  });

  it('a password changed behind the server: the old one is refused, the new one signs in', async () => {
    const user = await createUser(t);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { authorization: basic(user.email, user.password) },
    });
    expect(ok.statusCode).toBe(200);
    await behind('UPDATE users SET "hashedPassword" = ? WHERE id = ?', [
      await hashPassword('changed-elsewhere-1'),
      user.id,
    ]);
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/devices',
      headers: { authorization: basic(user.email, user.password) },
    });
    expect(old.statusCode).toBe(401);
    await expect(login(t.app, user.email, user.password)).rejects.toThrow();
    const cookie = await login(t.app, user.email, 'changed-elsewhere-1');
    expect(expectStatus<{ id: number }>(await api(t.app, cookie, 'GET', '/api/session'), 200).id).toBe(
      user.id,
    );
  });

  it('a user disabled behind the server: its open session is anonymous on the next request', async () => {
    const user = await createUser(t);
    await behind('UPDATE users SET disabled = 1 WHERE id = ?', [user.id]);
    expect((await api(t.app, user.cookie, 'GET', '/api/session')).statusCode).toBe(404);
  });

  it('a password-reset token deleted behind the server is refused', async () => {
    const user = await createUser(t);
    const token = 'h30v-reset-token';
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await behind('INSERT INTO password_resets ("tokenHash", "userId", "expiresAt") VALUES (?, ?, ?)', [
      sha256(token),
      user.id,
      until,
    ]);
    await behind('DELETE FROM password_resets WHERE "tokenHash" = ?', [sha256(token)]);
    const res = await postForm(t.app, null, '/api/password/update', { token, password: 'another-pass-1' });
    expect(res.statusCode).toBe(400);
  });
});
