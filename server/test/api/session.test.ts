import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/traccar/passwordHash.ts';
import { totpCode } from '../../src/traccar/totp.ts';
import {
  ADMIN_PASSWORD,
  api,
  createUser,
  expectStatus,
  login,
  makeTestApp,
  postForm,
  type TestApp,
} from '../helpers/index.ts';
import { first, select } from '../support/testSql.ts';

describe('session and authentication (CONTRACT §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('logs in with a form, sets an HttpOnly SameSite=Lax JSESSIONID and returns the User JSON', async () => {
    const res = await postForm(t.app, null, '/api/session', { email: 'ADMIN', password: ADMIN_PASSWORD });
    const user = expectStatus<Record<string, unknown>>(res, 200);
    expect(user).toMatchObject({
      id: 1,
      email: 'admin',
      login: 'admin',
      administrator: true,
      password: null,
    });
    expect(user.attributes).toEqual({});
    expect(user.phone).toBeNull();
    expect(user.expirationTime).toBeNull();
    expect(user).not.toHaveProperty('hashedPassword');
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^JSESSIONID=[A-Za-z0-9_-]{20,};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
  });

  it('rejects JSON login bodies with 415', async () => {
    const res = await api(t.app, null, 'POST', '/api/session', { email: 'admin', password: 'admin' });
    expect(res.statusCode).toBe(415);
  });

  it('matches email or login case-insensitively and trims the email', async () => {
    const u = await createUser(t, { email: 'Mixed.Case@Example.com', login: 'Driver7' });
    expectStatus(
      await postForm(t.app, null, '/api/session', {
        email: '  mixed.case@example.COM ',
        password: u.password,
      }),
      200,
    );
    expectStatus(
      await postForm(t.app, null, '/api/session', { email: 'driver7', password: u.password }),
      200,
    );
  });

  it('answers 401 for bad credentials and 400 with a clear text for a missing field', async () => {
    const bad = await postForm(t.app, null, '/api/session', { email: 'admin', password: 'wrong' });
    expect(bad.statusCode).toBe(401);
    const missing = await postForm(t.app, null, '/api/session', { email: 'admin' });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('password');
  });

  it('GET /api/session returns the cookie user, 404 without a session', async () => {
    const me = expectStatus<{ id: number }>(await api(t.app, t.admin, 'GET', '/api/session'), 200);
    expect(me.id).toBe(1);
    expect((await api(t.app, null, 'GET', '/api/session')).statusCode).toBe(404);
    expect((await api(t.app, 'JSESSIONID=nonsense', 'GET', '/api/session')).statusCode).toBe(404);
  });

  it('DELETE /api/session ends the session (204) and the cookie no longer works', async () => {
    const cookie = await login(t.app, 'admin', ADMIN_PASSWORD);
    expect((await api(t.app, cookie, 'DELETE', '/api/session')).statusCode).toBe(204);
    expect((await api(t.app, cookie, 'GET', '/api/session')).statusCode).toBe(404);
    expect((await api(t.app, cookie, 'GET', '/api/devices')).statusCode).toBe(401);
  });

  it('refuses disabled and expired users at login, and treats their sessions as anonymous', async () => {
    const u = await createUser(t);
    expectStatus(await api(t.app, u.cookie, 'GET', '/api/session'), 200);
    const full = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', `/api/users/${u.id}`),
      200,
    );
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/users/${u.id}`, { ...full, disabled: true }), 200);
    const res = await postForm(t.app, null, '/api/session', { email: u.email, password: u.password });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: User is disabled');
    expect((await api(t.app, u.cookie, 'GET', '/api/session')).statusCode).toBe(404);

    const e = await createUser(t);
    const eFull = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', `/api/users/${e.id}`),
      200,
    );
    const past = '2020-01-01T00:00:00.000+00:00';
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/users/${e.id}`, { ...eFull, expirationTime: past }),
      200,
    );
    const exp = await postForm(t.app, null, '/api/session', { email: e.email, password: e.password });
    expect(exp.statusCode).toBe(400);
    expect(exp.body).toBe('SecurityException: User has expired');
    expect((await api(t.app, e.cookie, 'GET', '/api/devices')).statusCode).toBe(401);
  });

  it('answers 401 on protected endpoints, with WWW-Authenticate only for HTML clients', async () => {
    const plain = await api(t.app, null, 'GET', '/api/devices');
    expect(plain.statusCode).toBe(401);
    expect(plain.headers['www-authenticate']).toBeUndefined();
    const html = await t.app.inject({ method: 'GET', url: '/api/devices', headers: { accept: 'text/html' } });
    expect(html.statusCode).toBe(401);
    expect(html.headers['www-authenticate']).toBe('Basic realm="api"');
  });

  it('accepts Basic (email or login) and rejects bad Basic / unknown schemes', async () => {
    const basic = Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64');
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/devices',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['set-cookie']).toBeUndefined();
    const wrong = Buffer.from('admin:nope').toString('base64');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/devices',
          headers: { authorization: `basic ${wrong}` },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/devices', headers: { authorization: 'Digest abc' } }))
        .statusCode,
    ).toBe(401);
  });

  it('issues tokens (default 7 days), accepts them as Bearer and ?token=, and revokes them', async () => {
    const res = await postForm(t.app, t.admin, '/api/session/token', {});
    const token = expectStatus<string>(res, 200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const row = (await select(t.ctx.store.sql, 'tokens', {}, { columns: ['expiresAt'] })) as Array<{
      expiresAt: string;
    }>;
    const days = (Date.parse(row[row.length - 1].expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // Only a hash of the token is stored.
    expect(JSON.stringify(row)).not.toContain(token);

    const bearer = await t.app.inject({
      method: 'GET',
      url: '/api/devices',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);

    const viaQuery = await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
    expect(expectStatus<{ id: number }>(viaQuery, 200).id).toBe(1);
    const cookie = viaQuery.cookies.find((c) => c.name === 'JSESSIONID');
    expect(cookie).toBeDefined();
    expectStatus(await api(t.app, `JSESSIONID=${cookie!.value}`, 'GET', '/api/session'), 200);

    expect((await postForm(t.app, t.admin, '/api/session/token/revoke', { token })).statusCode).toBe(204);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/devices',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`)).statusCode,
    ).toBe(401);
  });

  it('honours a token expiration and refuses past or zone-less dates', async () => {
    const expiration = new Date(Date.now() + 3_600_000).toISOString();
    const token = expectStatus<string>(
      await postForm(t.app, t.admin, '/api/session/token', { expiration }),
      200,
    );
    const row = (await first(
      t.ctx.store.sql,
      'tokens',
      { id: sha256(token) },
      { columns: ['expiresAt'] },
    )) as {
      expiresAt: string;
    };
    expect(row.expiresAt).toBe(expiration);
    expect(token.length).toBeGreaterThan(20);
    expect(
      (await postForm(t.app, t.admin, '/api/session/token', { expiration: '2020-01-01T00:00:00Z' }))
        .statusCode,
    ).toBe(400);
    const noZone = await postForm(t.app, t.admin, '/api/session/token', {
      expiration: '2030-01-01T00:00:00',
    });
    expect(noZone.statusCode).toBe(400);
    expect(noZone.body).toContain('invalid date');
  });

  it("a user cannot revoke another user's token", async () => {
    const u = await createUser(t);
    const token = expectStatus<string>(await postForm(t.app, t.admin, '/api/session/token', {}), 200);
    const res = await postForm(t.app, u.cookie, '/api/session/token/revoke', { token });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: User access denied');
  });

  it('GET /api/session/{id}: admin impersonates, plain users cannot', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const cookie = await login(t.app, 'admin', ADMIN_PASSWORD);
    expect(
      expectStatus<{ id: number }>(await api(t.app, cookie, 'GET', `/api/session/${u.id}`), 200).id,
    ).toBe(u.id);
    expect(expectStatus<{ id: number }>(await api(t.app, cookie, 'GET', '/api/session'), 200).id).toBe(u.id);
    const denied = await api(t.app, u.cookie, 'GET', `/api/session/${other.id}`);
    expect(denied.statusCode).toBe(400);
    expect(denied.body).toBe('SecurityException: User access denied');
  });

  it('checks the Origin of cookie requests against the login origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://app.example' },
      payload: 'email=admin&password=admin',
    });
    const cookie = `JSESSIONID=${res.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    const same = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie, origin: 'http://app.example' },
    });
    expect(same.statusCode).toBe(200);
    const evil = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie, origin: 'http://evil.example' },
    });
    expect(evil.statusCode).toBe(404);
    const none = await t.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });
    expect(none.statusCode).toBe(200);
  });

  it('without a recorded origin, the Origin host must equal the Host header', async () => {
    const cookie = await login(t.app, 'admin', ADMIN_PASSWORD);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie, origin: 'http://rastro.local:8082', host: 'rastro.local:8082' },
    });
    expect(ok.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie, origin: 'http://other.local', host: 'rastro.local:8082' },
    });
    expect(bad.statusCode).toBe(404);
  });

  it('TOTP: disabled by default, then required at login once the user has a key', async () => {
    const off = await t.app.inject({ method: 'POST', url: '/api/users/totp' });
    expect(off.statusCode).toBe(400);
    expect(off.body).toContain('One-time password is disabled');

    const server = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes: { totpEnable: true } }),
      200,
    );
    const keyRes = await t.app.inject({ method: 'POST', url: '/api/users/totp' });
    const key = expectStatus<string>(keyRes, 200);
    expect(key).toMatch(/^[A-Z2-7]{32}$/);

    const u = await createUser(t);
    const full = expectStatus<Record<string, unknown>>(
      await api(t.app, u.cookie, 'GET', `/api/users/${u.id}`),
      200,
    );
    expectStatus(await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, { ...full, totpKey: key }), 200);

    const noCode = await postForm(t.app, null, '/api/session', { email: u.email, password: u.password });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.headers['www-authenticate']).toBe('TOTP');
    const wrong = await postForm(t.app, null, '/api/session', {
      email: u.email,
      password: u.password,
      code: String((Number(totpCode(key)) + 500_000) % 1_000_000).padStart(6, '0'),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toBe('SecurityException: User authorization failed');
    const ok = await postForm(t.app, null, '/api/session', {
      email: u.email,
      password: u.password,
      code: totpCode(key),
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('login rate limiting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  const attempt = (ip: string, email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      payload: new URLSearchParams({ email, password }).toString(),
    });

  it('blocks an account after 10 failures in 15 minutes with 429 and a clear text, even with the right password', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 10; i++)
      expect((await attempt(`10.0.0.${i + 1}`, u.email, 'wrong')).statusCode).toBe(401);
    const blocked = await attempt('10.0.1.1', u.email, u.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toMatch(/^WebApplicationException: Too many login attempts, try again in \d+ s$/);
    const seconds = Number(/in (\d+) s/.exec(blocked.body)![1]);
    expect(seconds).toBeGreaterThan(800);
    expect(seconds).toBeLessThanOrEqual(900);
    expect(blocked.headers['retry-after']).toBe(String(seconds));
  });

  it('blocks an IP after 30 failures (across accounts), other IPs still log in', async () => {
    for (let i = 0; i < 30; i++)
      expect((await attempt('10.9.9.9', `nobody${i}@x`, 'wrong')).statusCode).toBe(401);
    expect((await attempt('10.9.9.9', 'admin', ADMIN_PASSWORD)).statusCode).toBe(429);
    expect((await attempt('10.9.9.10', 'admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });
});
