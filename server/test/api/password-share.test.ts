import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import { getMailer } from '../../src/traccar/mailer.ts';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  login,
  makeTestApp,
  postForm,
  type TestApp,
} from '../helpers/index.ts';
import { count, first, insert, update } from '../support/testSql.ts';

describe('password reset (CONTRACT §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('always answers 200; for a known user mails a 1-hour token stored only as a hash', async () => {
    const u = await createUser(t);
    const mailer = getMailer(t.ctx);
    expect(mailer.configured).toBe(false);
    const unknown = await postForm(t.app, null, '/api/password/reset', { email: 'nobody@nowhere' });
    expect(unknown.statusCode).toBe(200);
    expect(mailer.outbox.length).toBe(0);
    const known = await postForm(t.app, null, '/api/password/reset', { email: u.email.toUpperCase() });
    expect(known.statusCode).toBe(200);
    expect(mailer.outbox.length).toBe(1);
    const token = /\/login\/recover\/([^\s&]+)/.exec(mailer.outbox[0].body)![1];
    expect(mailer.outbox[0].to).toBe(u.email);
    const row = (await first(
      t.ctx.store.sql,
      'password_resets',
      {},
      { columns: ['tokenHash', 'expiresAt'] },
    )) as {
      tokenHash: string;
      expiresAt: string;
    };
    expect(row.tokenHash).not.toContain(decodeURIComponent(token));
    const minutes = (Date.parse(row.expiresAt) - Date.now()) / 60000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);

    expect(
      (await postForm(t.app, null, '/api/password/update', { token: 'bogus', password: 'x' })).statusCode,
    ).toBe(400);
    const upd = await postForm(t.app, null, '/api/password/update', {
      token: decodeURIComponent(token),
      password: 'brand-new',
    });
    expect(upd.statusCode).toBe(200);
    await login(t.app, u.email, 'brand-new');
    // A token works once.
    const again = await postForm(t.app, null, '/api/password/update', {
      token: decodeURIComponent(token),
      password: 'x',
    });
    expect(again.statusCode).toBe(400);
  });

  it('validates the form', async () => {
    expect((await postForm(t.app, null, '/api/password/reset', {})).statusCode).toBe(400);
    expect((await postForm(t.app, null, '/api/password/update', { token: 'x' })).statusCode).toBe(400);
  });
});

describe('shares (CONTRACT §2 last row)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('share/device: token of a temporary readonly user linked to the device, usable via GET /api/session?token=', async () => {
    const owner = await createUser(t, { email: 'owner@x' });
    const d = await createDevice(t, { uniqueId: 'SHARE-1', name: 'Shared truck' });
    const other = await createDevice(t);
    await link(t, { userId: owner.id, deviceId: d.id });
    const expiration = new Date(Date.now() + 3_600_000).toISOString();
    const res = await postForm(t.app, owner.cookie, '/api/share/device', {
      deviceId: String(d.id),
      expiration,
    });
    const token = expectStatus<string>(res, 200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const session = await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
    const shareUser = expectStatus<Record<string, unknown>>(session, 200);
    expect(shareUser).toMatchObject({
      email: 'owner@x:SHARE-1',
      temporary: true,
      readonly: true,
      attributes: { isShared: true },
      expirationTime: expiration.replace('Z', '+00:00'),
    });
    const cookie = `JSESSIONID=${session.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    const devices = expectStatus<Array<{ id: number }>>(await api(t.app, cookie, 'GET', '/api/devices'), 200);
    expect(devices.map((x) => x.id)).toEqual([d.id]);
    const write = await api(t.app, cookie, 'PUT', `/api/devices/${d.id}`, { ...d, name: 'hacked' });
    // Guests are refused every call of an area by the permission layer (SPEC §6 step 5), before Traccar's rules.
    const guestRefusal = `SecurityException: ${formatMessage('denied.sharedGuest', 'pt-BR')}`;
    expect(write.statusCode).toBe(403);
    expect(write.body).toBe(guestRefusal);
    expect((await api(t.app, cookie, 'GET', `/api/devices/${other.id}`)).body).toBe(guestRefusal);
  });

  it('share/group uses <owner email>:group:<id>; refused for invisible objects and with disableShare', async () => {
    const owner = await createUser(t, { email: 'gowner@x' });
    const g = await createObject(t, 'groups', { name: 'Shared group' });
    await link(t, { userId: owner.id, groupId: g.id });
    const expiration = new Date(Date.now() + 600_000).toISOString();
    const token = expectStatus<string>(
      await postForm(t.app, owner.cookie, '/api/share/group', { groupId: String(g.id), expiration }),
      200,
    );
    const su = expectStatus<{ email: string }>(
      await api(t.app, null, 'GET', `/api/session?token=${token}`),
      200,
    );
    expect(su.email).toBe(`gowner@x:group:${g.id}`);

    const hidden = await createDevice(t);
    const denied = await postForm(t.app, owner.cookie, '/api/share/device', {
      deviceId: String(hidden.id),
      expiration,
    });
    expect(denied.body).toBe('SecurityException: Device access denied');
    const noExp = await postForm(t.app, owner.cookie, '/api/share/group', { groupId: String(g.id) });
    expect(noExp.statusCode).toBe(400);

    const server = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes: { disableShare: true } }),
      200,
    );
    const off = await postForm(t.app, owner.cookie, '/api/share/group', {
      groupId: String(g.id),
      expiration,
    });
    expect(off.statusCode).toBe(400);
    expect(off.body).toBe('SecurityException: Sharing is disabled');
  });

  it('an expired share token no longer logs in', async () => {
    const d = await createDevice(t);
    const expiration = new Date(Date.now() + 600_000).toISOString();
    await update(t.ctx.store.sql, 'server', { attributes: '{}' });
    const token = expectStatus<string>(
      await postForm(t.app, t.admin, '/api/share/device', { deviceId: String(d.id), expiration }),
      200,
    );
    await update(t.ctx.store.sql, 'tokens', { expiresAt: '2020-01-01T00:00:00.000Z' });
    expect((await api(t.app, null, 'GET', `/api/session?token=${token}`)).statusCode).toBe(401);
  });
});

describe('POST /api/session/password (the Rastro client form, SPEC §7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ publicUrl: 'https://track.example.com' });
  });
  afterAll(async () => t.close());

  it("email + requested_from on PUBLIC_URL's origin requests a reset; token + password sets it", async () => {
    const u = await createUser(t);
    const req = await postForm(t.app, null, '/api/session/password', {
      email: u.email,
      requested_from: 'https://track.example.com/fleet/',
    });
    expect(req.statusCode).toBe(200);
    const body = getMailer(t.ctx).outbox.at(-1)!.body;
    expect(body).toContain('https://track.example.com/fleet/login/recover/');
    const token = decodeURIComponent(/\/login\/recover\/([^\s&]+)/.exec(body)![1]);
    expect(
      (await postForm(t.app, null, '/api/session/password', { token, password: 'via-rastro' })).statusCode,
    ).toBe(200);
    await login(t.app, u.email, 'via-rastro');
    expect(
      (await postForm(t.app, null, '/api/session/password', { token: 'nope', password: 'x' })).statusCode,
    ).toBe(400);
    expect((await postForm(t.app, null, '/api/session/password', {})).statusCode).toBe(400);
  });

  it('POST /api/server/restart is the admin-only alias of reboot', async () => {
    const res = await api(t.app, t.admin, 'POST', '/api/server/restart');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Not supported in embedded mode');
  });
});

describe('share guests and housekeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('share users cannot send commands or run reports, never outlive the owner, and cannot share further', async () => {
    const ownerExpiry = new Date(Date.now() + 1_800_000).toISOString();
    const owner = await createUser(t, { expirationTime: ownerExpiry });
    const d = await createDevice(t);
    await link(t, { userId: owner.id, deviceId: d.id });
    const token = expectStatus<string>(
      await postForm(t.app, owner.cookie, '/api/share/device', {
        deviceId: String(d.id),
        expiration: new Date(Date.now() + 86_400_000).toISOString(),
      }),
      200,
    );
    const session = await api(t.app, null, 'GET', `/api/session?token=${token}`);
    const guest = expectStatus<Record<string, unknown>>(session, 200);
    expect(guest).toMatchObject({
      limitCommands: true,
      disableReports: true,
      readonly: true,
      temporary: true,
    });
    expect(guest.expirationTime).toBe(ownerExpiry.replace('Z', '+00:00'));
    const cookie = `JSESSIONID=${session.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    const again = await postForm(t.app, cookie, '/api/share/device', {
      deviceId: String(d.id),
      expiration: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(again.statusCode).toBe(403);
    expect(again.body).toBe(`SecurityException: ${formatMessage('denied.sharedGuest', 'pt-BR')}`);
  });

  it('purgeExpired removes expired sessions, tokens and reset tokens only', async () => {
    const { purgeExpired } = await import('../../src/traccar/index.ts');
    const sql = t.ctx.store.sql;
    await insert(sql, 'sessions', {
      id: 'old',
      userId: 1,
      createdAt: '2020-01-01T00:00:00.000Z',
      expiresAt: '2020-01-02T00:00:00.000Z',
    });
    await insert(sql, 'tokens', { id: 'oldtoken', userId: 1, expiresAt: '2020-01-02T00:00:00.000Z' });
    await insert(sql, 'password_resets', {
      tokenHash: 'oldreset',
      userId: 1,
      expiresAt: '2020-01-02T00:00:00.000Z',
    });
    const sessionsBefore = await count(sql, 'sessions');
    expect(await purgeExpired(t.ctx)).toBe(3);
    expect(await count(sql, 'sessions')).toBe(sessionsBefore - 1);
    expectStatus(await api(t.app, t.admin, 'GET', '/api/session'), 200);
  });
});
