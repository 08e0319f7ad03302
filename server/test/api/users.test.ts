import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { count, first, remove, update } from '../support/testSql.ts';

type Obj = { id: number } & Record<string, unknown>;

describe('users (CONTRACT §4 POST /api/users, §6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  const getUser = async (cookie: string, id: number) =>
    expectStatus<Obj>(await api(t.app, cookie, 'GET', `/api/users/${id}`), 200);

  it('User JSON: password always null, hashedPassword never sent, every field present', async () => {
    const u = await createUser(t, { phone: '+1 555' });
    const json = await getUser(t.admin, u.id);
    expect(Object.keys(json).sort()).toEqual(
      [
        'id',
        'attributes',
        'name',
        'login',
        'email',
        'phone',
        'readonly',
        'administrator',
        'map',
        'latitude',
        'longitude',
        'zoom',
        'coordinateFormat',
        'disabled',
        'expirationTime',
        'deviceLimit',
        'userLimit',
        'deviceReadonly',
        'limitCommands',
        'disableReports',
        'fixedEmail',
        'poiLayer',
        'totpKey',
        'temporary',
        'password',
      ].sort(),
    );
    expect(json.password).toBeNull();
    expect(json.phone).toBe('+1 555');
  });

  it('PUT with empty password keeps the old one; a new password re-hashes', async () => {
    const u = await createUser(t);
    const json = await getUser(t.admin, u.id);
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/users/${u.id}`, { ...json, password: '' }), 200);
    const ok = await api(t.app, null, 'POST', '/api/session', undefined);
    expect(ok.statusCode).toBe(415);
    const { login } = await import('../helpers/index.ts');
    await login(t.app, u.email, u.password);
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/users/${u.id}`, { ...json, password: 'new-pass-1' }),
      200,
    );
    await expect(login(t.app, u.email, u.password)).rejects.toThrow(/401/);
    await login(t.app, u.email, 'new-pass-1');
  });

  it('lists: admin sees all users, a manager only its managed users, a plain user none', async () => {
    const manager = await createUser(t, { userLimit: 5 });
    const managed = await createUser(t, { name: 'Managed one' }, manager.cookie);
    const plain = await createUser(t);
    const adminList = expectStatus<Obj[]>(await api(t.app, t.admin, 'GET', '/api/users'), 200);
    expect(adminList.map((u) => u.id)).toEqual(expect.arrayContaining([1, manager.id, managed.id, plain.id]));
    const mList = expectStatus<Obj[]>(await api(t.app, manager.cookie, 'GET', '/api/users'), 200);
    expect(mList.map((u) => u.id)).toEqual([managed.id]);
    expect(expectStatus<Obj[]>(await api(t.app, plain.cookie, 'GET', '/api/users'), 200)).toEqual([]);
    const byUser = expectStatus<Obj[]>(
      await api(t.app, t.admin, 'GET', `/api/users?userId=${manager.id}`),
      200,
    );
    expect(byUser.map((u) => u.id)).toEqual([managed.id]);
    // Managed users are linked as managedUserId and a manager may read/edit them.
    const m = await getUser(manager.cookie, managed.id);
    expectStatus(
      await api(t.app, manager.cookie, 'PUT', `/api/users/${managed.id}`, { ...m, readonly: true }),
      200,
    );
    expect((await getUser(t.admin, managed.id)).readonly).toBe(true);
  });

  it('users?deviceId= lists users linked to the device (managers and admins)', async () => {
    const d = await createDevice(t);
    const a = await createUser(t);
    await link(t, { userId: a.id, deviceId: d.id });
    const list = expectStatus<Obj[]>(await api(t.app, t.admin, 'GET', `/api/users?deviceId=${d.id}`), 200);
    expect(list.map((u) => u.id).sort()).toEqual([1, a.id].sort((x, y) => x - y));
    const res = await api(t.app, a.cookie, 'GET', `/api/users?deviceId=${d.id}`);
    expect(res.body).toBe('SecurityException: Manager access required');
  });

  it('manager user limit: "Manager user limit reached"', async () => {
    const manager = await createUser(t, { userLimit: 1 });
    await createUser(t, {}, manager.cookie);
    const res = await api(t.app, manager.cookie, 'POST', '/api/users', {
      name: 'x',
      email: 'over@limit',
      password: 'p',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Manager user limit reached');
    expect(await first(t.ctx.store.sql, 'users', { email: 'over@limit' })).toBeUndefined();
  });

  it('managers cannot set administrator, deviceLimit or userLimit', async () => {
    const manager = await createUser(t, { userLimit: -1 });
    for (const extra of [{ administrator: true }, { deviceLimit: 5 }, { userLimit: 3 }]) {
      const res = await api(t.app, manager.cookie, 'POST', '/api/users', {
        name: 'n',
        email: `m-${JSON.stringify(extra).length}-${Math.random()}@x`,
        password: 'p',
        ...extra,
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe('SecurityException: Administrator access required');
    }
    const ok = expectStatus<Obj>(
      await api(t.app, manager.cookie, 'POST', '/api/users', {
        name: 'Managed ok',
        email: 'managed-ok@x',
        password: 'pass',
        readonly: true,
      }),
      200,
    );
    expect(ok).toMatchObject({ administrator: false, deviceLimit: 0, userLimit: 0, readonly: true });
    // Nor can they raise their own limits or flags.
    const self = await getUser(manager.cookie, manager.id);
    const raise = await api(t.app, manager.cookie, 'PUT', `/api/users/${manager.id}`, {
      ...self,
      userLimit: 100,
    });
    expect(raise.body).toBe('SecurityException: Administrator access required');
  });

  it('users cannot change their own restriction flags; fixedEmail users cannot change their email', async () => {
    const u = await createUser(t, { fixedEmail: true });
    const self = await getUser(u.cookie, u.id);
    const flag = await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, { ...self, deviceReadonly: true });
    expect(flag.body).toBe('SecurityException: Administrator access required');
    const email = await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, { ...self, email: 'changed@x' });
    expect(email.body).toBe('SecurityException: Administrator access required');
    const name = expectStatus<Obj>(
      await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, { ...self, name: 'New name' }),
      200,
    );
    expect(name.name).toBe('New name');
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/users/${u.id}`, { ...self, email: 'changed@x' }),
      200,
    );
  });

  it('readonly users may only change notificationTokens / termsAccepted on themselves', async () => {
    const u = await createUser(t, { readonly: true });
    const self = await getUser(u.cookie, u.id);
    const ok = await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, {
      ...self,
      attributes: { termsAccepted: true },
    });
    expect(ok.statusCode).toBe(200);
    const bad = await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, { ...self, name: 'Other' });
    expect(bad.body).toBe('SecurityException: Write access denied');
  });

  it('duplicate emails are refused (case-insensitive)', async () => {
    const u = await createUser(t, { email: 'Same@Example.com' });
    const res = await api(t.app, t.admin, 'POST', '/api/users', {
      name: 'Same',
      email: 'same@example.COM',
      password: 'pass',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Duplicate email');
    expect(u.id).toBeGreaterThan(0);
  });

  it('deleting a user removes its links, sessions and tokens (nobody deletes itself: users-rules.test.ts)', async () => {
    const u = await createUser(t);
    const d = await createDevice(t);
    await link(t, { userId: u.id, deviceId: d.id });
    const res = await api(t.app, t.admin, 'DELETE', `/api/users/${u.id}`);
    expect(res.statusCode).toBe(204);
    expect((await api(t.app, u.cookie, 'GET', '/api/session')).statusCode).toBe(404);
    const sql = t.ctx.store.sql;
    expect(await count(sql, 'links', { ownerType: 'user', ownerId: u.id })).toBe(0);
    expect(await count(sql, 'sessions', { userId: u.id })).toBe(0);
  });

  it('deviceLimit: 0 cannot create devices, n refuses the (n+1)th, -1 unlimited', async () => {
    const none = await createUser(t, { deviceLimit: 0 });
    const r0 = await api(t.app, none.cookie, 'POST', '/api/devices', { name: 'x', uniqueId: 'limit-0' });
    expect(r0.body).toBe('SecurityException: Write access denied');
    const two = await createUser(t, { deviceLimit: 2 });
    await createDevice(t, {}, two.cookie);
    await createDevice(t, {}, two.cookie);
    const r3 = await api(t.app, two.cookie, 'POST', '/api/devices', { name: 'x', uniqueId: 'limit-3' });
    expect(r3.statusCode).toBe(400);
    expect(r3.body).toBe('SecurityException: Write access denied');
    expect(await first(t.ctx.store.sql, 'devices', { uniqueId: ['limit-0', 'limit-3'] })).toBeUndefined();
    const many = await createUser(t, { deviceLimit: -1 });
    for (let i = 0; i < 3; i++) await createDevice(t, {}, many.cookie);
  });
});

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('closed by default: "Registration disabled"', async () => {
    const res = await api(t.app, null, 'POST', '/api/users', { name: 'Reg', email: 'reg@x', password: 'p' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Registration disabled');
  });

  it('open when server.registration: anonymous users get deviceLimit -1, no admin rights', async () => {
    const server = expectStatus<Obj>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, registration: true }), 200);
    const u = expectStatus<Obj>(
      await api(t.app, null, 'POST', '/api/users', { name: 'Reg', email: 'reg@x', password: 'p' }),
      200,
    );
    expect(u).toMatchObject({ administrator: false, deviceLimit: -1, userLimit: 0, password: null });
    const admin = await api(t.app, null, 'POST', '/api/users', {
      name: 'A',
      email: 'a@x',
      password: 'p',
      administrator: true,
    });
    expect(admin.body).toBe('SecurityException: Administrator access required');
    const flags = await api(t.app, null, 'POST', '/api/users', {
      name: 'A',
      email: 'a@x',
      password: 'p',
      readonly: true,
    });
    expect(flags.body).toBe('SecurityException: Administrator access required');
  });

  it('totpForce requires a key at self-registration', async () => {
    const server = expectStatus<Obj>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...server,
        registration: true,
        attributes: { totpForce: true },
      }),
      200,
    );
    const res = await api(t.app, null, 'POST', '/api/users', { name: 'T', email: 't@x', password: 'p' });
    expect(res.body).toBe('SecurityException: One-time password key is required');
  });

  it('with no users at all, newServer is true and the first user becomes administrator', async () => {
    await remove(t.ctx.store.sql, 'users');
    await remove(t.ctx.store.sql, 'sessions');
    await update(t.ctx.store.sql, 'server', { attributes: '{}' });
    const server = expectStatus<Obj>(await api(t.app, null, 'GET', '/api/server'), 200);
    expect(server.newServer).toBe(true);
    const first = expectStatus<Obj>(
      await api(t.app, null, 'POST', '/api/users', { name: 'First', email: 'first@x', password: 'p' }),
      200,
    );
    expect(first.administrator).toBe(true);
    expect(expectStatus<Obj>(await api(t.app, null, 'GET', '/api/server'), 200).newServer).toBe(false);
  });
});

describe('administrators are protected from non-admins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('a manager who manages an admin still cannot edit, delete or impersonate it', async () => {
    const manager = await createUser(t, { userLimit: 5 });
    const otherAdmin = await createUser(t, { administrator: true });
    await link(t, { userId: manager.id, managedUserId: otherAdmin.id });
    const full = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${otherAdmin.id}`), 200);
    const put = await api(t.app, manager.cookie, 'PUT', `/api/users/${otherAdmin.id}`, {
      ...full,
      password: 'takeover',
    });
    expect(put.body).toBe('SecurityException: Administrator access required');
    const del = await api(t.app, manager.cookie, 'DELETE', `/api/users/${otherAdmin.id}`);
    expect(del.body).toBe('SecurityException: Administrator access required');
    const imp = await api(t.app, manager.cookie, 'GET', `/api/session/${otherAdmin.id}`);
    expect(imp.body).toBe('SecurityException: Administrator access required');
    expect(await first(t.ctx.store.sql, 'users', { id: otherAdmin.id })).toBeDefined();
  });
});
