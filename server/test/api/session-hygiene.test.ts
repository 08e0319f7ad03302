// Session hygiene (issue #10): logout revokes the remember-me token, idle password sessions end, the cookie is
// Secure over HTTPS, pages carry a CSP and cannot be framed; and the driver QR password is only a hash.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyQrPassword } from '../../src/traccar/driverPassword.ts';
import type { Row } from '../../src/traccar/model.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/webApp.ts';
import {
  api,
  createObject,
  createUser,
  expectStatus,
  makeTestApp,
  postForm,
  type TestApp,
} from '../helpers/index.ts';
import { first, update } from '../support/testSql.ts';

const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());

  const tokenLogin = (token: string) =>
    api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);

  it('logout revokes the remember-me token issued in the session; API tokens survive', async () => {
    const u = await createUser(t);
    const remember = expectStatus<string>(
      await postForm(t.app, u.cookie, '/api/session/token', { expiration: inAMonth(), rememberMe: 'true' }),
      200,
    );
    const apiToken = expectStatus<string>(
      await postForm(t.app, u.cookie, '/api/session/token', { expiration: inAMonth() }),
      200,
    );
    expect((await tokenLogin(remember)).statusCode).toBe(200);
    expect((await api(t.app, u.cookie, 'DELETE', '/api/session')).statusCode).toBe(204);
    expect((await tokenLogin(remember)).statusCode).toBe(401);
    expect((await tokenLogin(apiToken)).statusCode).toBe(200);
  });

  it('logging out of a session restored from a remember-me token revokes that token', async () => {
    const u = await createUser(t);
    const remember = expectStatus<string>(
      await postForm(t.app, u.cookie, '/api/session/token', { expiration: inAMonth(), rememberMe: 'true' }),
      200,
    );
    const restored = await tokenLogin(remember); // a new browser session from the stored token
    const cookie = `JSESSIONID=${restored.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    expect((await api(t.app, cookie, 'DELETE', '/api/session')).statusCode).toBe(204);
    expect((await tokenLogin(remember)).statusCode).toBe(401);
  });

  it('a password session unused for SESSION_IDLE_DAYS ends; one in use is extended', async () => {
    const u = await createUser(t);
    const sid = u.cookie.split('=')[1];
    const setLastSeen = async (daysAgo: number) =>
      await update(
        t.ctx.store.sql,
        'sessions',
        { lastSeenAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString() },
        { id: sid },
      );
    await setLastSeen(29);
    expect((await api(t.app, u.cookie, 'GET', '/api/session')).statusCode).toBe(200);
    const seen = (await first(t.ctx.store.sql, 'sessions', { id: sid }, { columns: ['lastSeenAt'] })) as {
      lastSeenAt: string;
    };
    expect(Date.now() - Date.parse(seen.lastSeenAt)).toBeLessThan(60_000); // the request refreshed it
    await setLastSeen(30.01);
    expect((await api(t.app, u.cookie, 'GET', '/api/session')).statusCode).toBe(404);
    expect(await first(t.ctx.store.sql, 'sessions', { id: sid })).toBeUndefined();
  });

  it('the session cookie is HttpOnly and SameSite, and Secure when the request came over HTTPS', async () => {
    const u = await createUser(t);
    const form = new URLSearchParams({ email: u.email, password: u.password }).toString();
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    const c1 = plain.cookies.find((c) => c.name === 'JSESSIONID')!;
    expect(c1).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(c1.secure).toBeFalsy();
    const tls = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
      payload: form,
    });
    expect(tls.cookies.find((c) => c.name === 'JSESSIONID')!.secure).toBe(true);
  });

  it('SESSION_IDLE_DAYS is read from the environment', async () => {
    const short = await makeTestApp({}, { SESSION_IDLE_DAYS: '2' });
    try {
      expect(short.ctx.config.sessionIdleMs).toBe(2 * 86_400_000);
    } finally {
      await short.close();
    }
  });
});

describe('driver QR password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());

  const storedHash = async (id: number) =>
    (
      JSON.parse(
        (
          (await first(t.ctx.store.sql, 'drivers', { id }, { columns: ['attributes'] })) as {
            attributes: string;
          }
        ).attributes,
      ) as Record<string, unknown>
    ).qrPassword;

  it('is stored as a scrypt hash and never returned; a blank password keeps it, null removes it', async () => {
    const d = await createObject(t, 'drivers', {
      name: 'Ana',
      uniqueId: 'qr-ana',
      attributes: { qrUsername: 'ana', qrPassword: 's3cret-pin' },
    });
    const hash = await storedHash(d.id);
    expect(String(hash)).toMatch(/^scrypt\$/);
    expect(JSON.stringify(d)).not.toContain('s3cret-pin');
    expect(d.attributes).toEqual({ qrUsername: 'ana', qrPasswordSet: true });
    const listed = expectStatus<Array<{ attributes: Record<string, unknown> }>>(
      await api(t.app, t.admin, 'GET', '/api/drivers'),
      200,
    );
    expect(JSON.stringify(listed)).not.toContain('scrypt$');
    const row = (await first(t.ctx.store.sql, 'drivers', { id: d.id })) as Row;
    expect(await verifyQrPassword(row, 's3cret-pin')).toBe(true);
    expect(await verifyQrPassword(row, 'wrong')).toBe(false);

    // the form sends the driver back without a password (and with qrPasswordSet): the hash stays
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/drivers/${d.id}`, {
        ...d,
        name: 'Ana Maria',
        attributes: { ...(d.attributes as Record<string, unknown>), qrPassword: '' },
      }),
      200,
    );
    expect(await storedHash(d.id)).toBe(hash);
    // a client cannot plant a hash of its own choosing
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/drivers/${d.id}`, {
        ...d,
        attributes: { qrPassword: 'scrypt$1$1$1$AAAA$BBBB' },
      }),
      200,
    );
    expect(await storedHash(d.id)).toBe(hash);
    // a new password replaces it
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/drivers/${d.id}`, {
        ...d,
        attributes: { qrPassword: 'new-pin' },
      }),
      200,
    );
    expect(await storedHash(d.id)).not.toBe(hash);
    // null removes it
    const cleared = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'PUT', `/api/drivers/${d.id}`, { ...d, attributes: { qrPassword: null } }),
      200,
    );
    expect(await storedHash(d.id)).toBeUndefined();
    expect(cleared.attributes.qrPasswordSet).toBeUndefined();
  });
});

describe('pages: CSP and framing', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'rastro-csp-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Rastro</title>');
    t = await makeTestApp({ webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it("every page forbids framing by other sites (frame-ancestors 'self', X-Frame-Options) and inline scripts", async () => {
    for (const url of ['/', '/login', '/home', '/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
