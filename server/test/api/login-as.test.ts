// Log in as (SPEC §6 "An admin can log in as another user", issue #28): GET /api/session/{id} switches the cookie
// session and remembers the administrator; GET /{ns}/session/original names it for the banner; POST
// /{ns}/session/return gives the session back. Both steps are in the audit trail; the superior administrator, a
// disabled or expired user and a plain user's request are refused with a translated 403 (400 for a plain user, as
// Traccar answers a foreign user id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import {
  ADMIN_PASSWORD,
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  login,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { select, update } from '../support/testSql.ts';

interface Action {
  userId: number;
  actionType: string;
  objectType: string;
  objectId: number;
}

describe('log in as another user', () => {
  let t: TestApp;
  let adminId: number;

  const actions = async (type: string) =>
    (await select(
      t.ctx.store.sql,
      'actions',
      { actionType: type },
      { columns: ['userId', 'actionType', 'objectType', 'objectId'], orderBy: ['id'] },
    )) as Action[];

  beforeAll(async () => {
    t = await makeTestApp();
    adminId = expectStatus<{ id: number }>(await api(t.app, t.admin, 'GET', '/api/session'), 200).id;
  });
  afterAll(() => t.close());

  it('an administrator becomes the user, sees its devices only, is audited, and returns', async () => {
    const sub = await createUser(t, { name: 'Sub User', readonly: true }); // read-only: may still return
    const mine = await createDevice(t, { name: 'Sub car' });
    await createDevice(t, { name: 'Not his' });
    await link(t, { userId: sub.id, deviceId: mine.id });
    const cookie = await login(t.app, 'admin', ADMIN_PASSWORD);

    expect(
      expectStatus<{ id: number }>(await api(t.app, cookie, 'GET', `/api/session/${sub.id}`), 200).id,
    ).toBe(sub.id);
    expect(expectStatus<{ id: number }>(await api(t.app, cookie, 'GET', '/api/session'), 200).id).toBe(
      sub.id,
    );
    const devices = expectStatus<{ id: number }[]>(await api(t.app, cookie, 'GET', '/api/devices'), 200);
    expect(devices.map((d) => d.id)).toEqual([mine.id]);
    const original = expectStatus<{ id: number; name: string }>(
      await api(t.app, cookie, 'GET', '/rastro/session/original'),
      200,
    );
    expect(original.id).toBe(adminId);
    expect(await actions('loginAs')).toContainEqual({
      userId: adminId,
      actionType: 'loginAs',
      objectType: 'user',
      objectId: sub.id,
    });

    const back = await api(t.app, cookie, 'POST', '/rastro/session/return');
    expect(expectStatus<{ id: number }>(back, 200).id).toBe(adminId);
    expect(expectStatus<{ id: number }>(await api(t.app, cookie, 'GET', '/api/session'), 200).id).toBe(
      adminId,
    );
    expect((await api(t.app, cookie, 'GET', '/rastro/session/original')).statusCode).toBe(204);
    expect(await actions('loginAsReturn')).toContainEqual({
      userId: adminId,
      actionType: 'loginAsReturn',
      objectType: 'user',
      objectId: sub.id,
    });
  });

  it('a session that is nobody else’s has nothing to return to (translated 403)', async () => {
    const u = await createUser(t);
    expect((await api(t.app, u.cookie, 'GET', '/rastro/session/original')).statusCode).toBe(204);
    const res = await t.app.inject({
      method: 'POST',
      url: '/rastro/session/return',
      headers: { cookie: u.cookie, 'accept-language': 'pt-BR' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(formatMessage('validation.notImpersonating', 'pt-BR'));
  });

  it('a plain user cannot log in as another user', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const res = await api(t.app, u.cookie, 'GET', `/api/session/${other.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: User access denied');
    expect(expectStatus<{ id: number }>(await api(t.app, u.cookie, 'GET', '/api/session'), 200).id).toBe(
      u.id,
    );
  });

  it('another administrator cannot log in as the superior administrator', async () => {
    const second = await createUser(t, { administrator: true });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/session/${adminId}`,
      headers: { cookie: second.cookie, 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(formatMessage('validation.cannotEditSuperiorAdmin', 'es'));
    expect(expectStatus<{ id: number }>(await api(t.app, second.cookie, 'GET', '/api/session'), 200).id).toBe(
      second.id,
    );
  });

  it('a disabled or expired user cannot be logged in as', async () => {
    const cookie = await login(t.app, 'admin', ADMIN_PASSWORD);
    const disabled = await createUser(t, { disabled: true });
    const expired = await createUser(t);
    await update(
      t.ctx.store.sql,
      'users',
      { expirationTime: '2020-01-01T00:00:00.000Z' },
      { id: expired.id },
    );
    const headers = { cookie, 'accept-language': 'en-US' };
    const d = await t.app.inject({ method: 'GET', url: `/api/session/${disabled.id}`, headers });
    expect(d.statusCode).toBe(403);
    expect(d.body).toContain(formatMessage('validation.loginAsDisabled', 'en-US'));
    const e = await t.app.inject({ method: 'GET', url: `/api/session/${expired.id}`, headers });
    expect(e.statusCode).toBe(403);
    expect(e.body).toContain(formatMessage('validation.loginAsExpired', 'en-US'));
    expect(expectStatus<{ id: number }>(await api(t.app, cookie, 'GET', '/api/session'), 200).id).toBe(
      adminId,
    );
  });
});
