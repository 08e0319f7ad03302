// Rules the server enforces on users (issue #10 B; docs/users.md "Rules the server enforces"): protected fields
// on one's own user and a manager's limits on its sub-users (domain userRules.ts protectedUserChanges), the
// superior administrator (the first administrator), no self-delete, and the SPEC §5 user-form numbers. Every
// call is made directly as the refused role.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import {
  api,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { first, update } from '../support/testSql.ts';

type Obj = { id: number; attributes: Record<string, unknown> } & Record<string, unknown>;

const ALL_BITS = 'ffffffffffffffffffffffffffffffff';
const en = (key: Parameters<typeof formatMessage>[0], values: Record<string, string | number> = {}) =>
  `SecurityException: ${formatMessage(key, 'en-US', values)}`;

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

/** A JSON request in English (Accept-Language: en-US). */
function call(cookie: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, 'accept-language': 'en-US' },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

const stored = async (id: number) =>
  (await first(t.ctx.store.sql, 'users', { id })) as
    (Record<string, unknown> & { attributes: string }) | undefined;
const storedAttrs = async (id: number) =>
  JSON.parse((await stored(id))!.attributes) as Record<string, unknown>;
const read = async (cookie: string, id: number) =>
  expectStatus<Obj>(await api(t.app, cookie, 'GET', `/api/users/${id}`), 200);
const setServerAttributes = async (attrs: Record<string, unknown>) =>
  await update(t.ctx.store.sql, 'server', { attributes: JSON.stringify(attrs) }, { id: 1 });

function expectRefused(res: LightMyRequestResponse, key: Parameters<typeof formatMessage>[0], values = {}) {
  expect(res.statusCode).toBe(403);
  expect(res.body).toBe(en(key, values));
}

describe('one’s own user', () => {
  it('finding: a user PUTting its own user with rastro.advancedPerms "fff…" is refused and nothing is stored', async () => {
    const u = await createUser(t);
    const self = await read(u.cookie, u.id);
    const res = await call(u.cookie, 'PUT', `/api/users/${u.id}`, {
      ...self,
      attributes: { ...self.attributes, 'rastro.advancedPerms': ALL_BITS },
    });
    expectRefused(res, 'denied.protectedField', { field: 'rastro.advancedPerms' });
    expect((await storedAttrs(u.id))['rastro.advancedPerms']).toBeUndefined();
  });

  it('finding: the QR driver cannot clear its own rastro.isQrDriverId', async () => {
    const driver = await createUser(t, {
      email: 'motorista@rastro.test',
      attributes: { 'rastro.isQrDriverId': 7 },
    });
    const self = await read(driver.cookie, driver.id);
    // A QR driver is refused every self-edit by the permission layer (SPEC §6 step 1), before the field rules.
    for (const value of [null, '', 0, 8]) {
      const res = await call(driver.cookie, 'PUT', `/api/users/${driver.id}`, {
        ...self,
        attributes: { ...self.attributes, 'rastro.isQrDriverId': value },
      });
      expectRefused(res, 'denied.qrDriver');
    }
    const { ['rastro.isQrDriverId']: _dropped, ...rest } = self.attributes;
    expect(_dropped).toBe(7);
    expectRefused(
      await call(driver.cookie, 'PUT', `/api/users/${driver.id}`, { ...self, attributes: rest }),
      'denied.qrDriver',
    );
    expect((await storedAttrs(driver.id))['rastro.isQrDriverId']).toBe(7);
  });

  it('omitting a protected attribute in a self-PUT keeps it; changing it is refused by the field rule', async () => {
    const u = await createUser(t, { attributes: { 'rastro.advancedPerms': '0'.repeat(31) + '1' } });
    const self = await read(u.cookie, u.id);
    expectRefused(
      await call(u.cookie, 'PUT', `/api/users/${u.id}`, {
        ...self,
        attributes: { ...self.attributes, 'rastro.advancedPerms': 'f'.repeat(32) },
      }),
      'denied.protectedField',
      { field: 'rastro.advancedPerms' },
    );
    const { ['rastro.advancedPerms']: _dropped, ...rest } = self.attributes;
    const ok = await call(u.cookie, 'PUT', `/api/users/${u.id}`, {
      ...self,
      phone: '+55 11 5555',
      attributes: rest,
    });
    expect(ok.statusCode).toBe(200);
    expect((await storedAttrs(u.id))['rastro.advancedPerms']).toBe('0'.repeat(31) + '1');
    expect((await stored(u.id))!.phone).toBe('+55 11 5555');
  });

  it('a user cannot give itself a driver device, an expiry of its choice or drop a role attribute it has', async () => {
    const u = await createUser(t);
    const self = await read(u.cookie, u.id);
    expectRefused(
      await call(u.cookie, 'PUT', `/api/users/${u.id}`, {
        ...self,
        attributes: { 'rastro.isQrDeviceId': 3 },
      }),
      'denied.protectedField',
      { field: 'rastro.isQrDeviceId' },
    );
    expectRefused(
      await call(u.cookie, 'PUT', `/api/users/${u.id}`, {
        ...self,
        expirationTime: '2030-01-01T00:00:00.000Z',
      }),
      'denied.protectedField',
      { field: 'expirationTime' },
    );
    expect((await stored(u.id))!.expirationTime).toBeNull();
    // Traccar's own refusals for the administrator flag, the limits and the restriction flags stay (400).
    for (const change of [
      { administrator: true },
      { userLimit: 5 },
      { disabled: true },
      { readonly: true },
    ]) {
      const res = await call(u.cookie, 'PUT', `/api/users/${u.id}`, { ...self, ...change });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe('SecurityException: Administrator access required');
    }
  });

  it('the whole user sent back unchanged (as the web does) is saved, role attributes included', async () => {
    const u = await createUser(t, {
      attributes: { 'rastro.advancedPerms': '0000ffff0000ffff0000ffff0000ffff', 'rastro.billingPrice': 90 },
    });
    const self = await read(u.cookie, u.id);
    const res = await call(u.cookie, 'PUT', `/api/users/${u.id}`, { ...self, name: 'Renamed user' });
    expect(res.statusCode).toBe(200);
    expect(await storedAttrs(u.id)).toMatchObject({
      'rastro.advancedPerms': '0000ffff0000ffff0000ffff0000ffff',
      'rastro.billingPrice': 90,
    });
  });

  it('a readonly user cannot write a role attribute either', async () => {
    const u = await createUser(t, { readonly: true });
    const self = await read(u.cookie, u.id);
    const res = await call(u.cookie, 'PUT', `/api/users/${u.id}`, {
      ...self,
      attributes: { 'rastro.advancedPerms': ALL_BITS },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Write access denied');
    expect((await storedAttrs(u.id))['rastro.advancedPerms']).toBeUndefined();
  });

  it('the refusal is written in the caller’s language (pt-BR by default)', async () => {
    const u = await createUser(t);
    const self = await read(u.cookie, u.id);
    const res = await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, {
      ...self,
      attributes: { 'rastro.advancedPerms': ALL_BITS },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(
      `SecurityException: ${formatMessage('denied.protectedField', 'pt-BR', { field: 'rastro.advancedPerms' })}`,
    );
  });

  it('self-registration cannot carry role attributes', async () => {
    await setServerAttributes({});
    await update(t.ctx.store.sql, 'server', { registration: 1 }, { id: 1 });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { 'accept-language': 'en-US' },
        payload: {
          name: 'Reg',
          email: 'reg-qr@x',
          password: 'p',
          attributes: { 'rastro.isQrDriverId': 1 },
        },
      });
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe(en('denied.protectedField', { field: 'rastro.isQrDriverId' }));
      // Traccar clients register with their own rules: the SPEC §5 form numbers are not applied here.
      const short = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { name: 'R', email: 'r@x', password: 'p' },
      });
      expect(short.statusCode).toBe(200);
    } finally {
      await update(t.ctx.store.sql, 'server', { registration: 0 }, { id: 1 });
    }
  });
});

describe('a manager and its sub-users', () => {
  it('cannot leave a sub-user without a restriction it has itself (create or edit)', async () => {
    const manager = await createUser(t, { userLimit: 10, deviceReadonly: true, limitCommands: true });
    const body = (extra: Record<string, unknown>) => ({
      name: 'Sub user',
      email: `sub-${Math.random()}@x.com`,
      password: 'pass',
      deviceReadonly: true,
      limitCommands: true,
      ...extra,
    });
    expectRefused(
      await call(manager.cookie, 'POST', '/api/users', body({ deviceReadonly: false })),
      'denied.protectedField',
      { field: 'deviceReadonly' },
    );
    const sub = expectStatus<Obj>(await call(manager.cookie, 'POST', '/api/users', body({})), 200);
    const full = await read(manager.cookie, sub.id);
    expectRefused(
      await call(manager.cookie, 'PUT', `/api/users/${sub.id}`, { ...full, limitCommands: false }),
      'denied.protectedField',
      { field: 'limitCommands' },
    );
    expect((await stored(sub.id))!.limitCommands).toBe(1);
    // Restrictions it does not have itself are its to set and clear.
    const on = await call(manager.cookie, 'PUT', `/api/users/${sub.id}`, { ...full, readonly: true });
    expect(on.statusCode).toBe(200);
    const off = await call(manager.cookie, 'PUT', `/api/users/${sub.id}`, { ...full, readonly: false });
    expect(off.statusCode).toBe(200);
    // It may set a role attribute on its own sub-user (a QR driver of its fleet).
    const qr = await call(manager.cookie, 'PUT', `/api/users/${sub.id}`, {
      ...full,
      attributes: { 'rastro.isQrDriverId': 4 },
    });
    expect(qr.statusCode).toBe(200);
    expect((await storedAttrs(sub.id))['rastro.isQrDriverId']).toBe(4);
  });

  it('cannot give advanced permission bits it lacks (advanced permissions on, manager with a string)', async () => {
    await setServerAttributes({ 'rastro.enableAdvancedPerms': true });
    try {
      const mine = 'ff00ff00000000000000000000000000';
      const manager = await createUser(t, { userLimit: 10, attributes: { 'rastro.advancedPerms': mine } });
      const body = (perms?: string) => ({
        name: 'Sub user',
        email: `sub-${Math.random()}@x.com`,
        password: 'pass',
        attributes: perms === undefined ? {} : { 'rastro.advancedPerms': perms },
      });
      const field = { field: 'rastro.advancedPerms' };
      expectRefused(
        await call(manager.cookie, 'POST', '/api/users', body(ALL_BITS)),
        'denied.protectedField',
        field,
      );
      // No string = every bit (SPEC §6 rule 5): a restricted manager must give one.
      expectRefused(await call(manager.cookie, 'POST', '/api/users', body()), 'denied.protectedField', field);
      const sub = expectStatus<Obj>(
        await call(manager.cookie, 'POST', '/api/users', body('f000f000000000000000000000000000')),
        200,
      );
      const full = await read(manager.cookie, sub.id);
      expectRefused(
        await call(manager.cookie, 'PUT', `/api/users/${sub.id}`, {
          ...full,
          attributes: { 'rastro.advancedPerms': 'f000f0000000000000000000000000f0' },
        }),
        'denied.protectedField',
        field,
      );
      // Bits an administrator gave the sub-user survive the manager's edits that keep them.
      await update(
        t.ctx.store.sql,
        'users',
        { attributes: JSON.stringify({ 'rastro.advancedPerms': 'f000f00000000000000000000000000f' }) },
        { id: sub.id },
      );
      const again = await read(manager.cookie, sub.id);
      const keep = await call(manager.cookie, 'PUT', `/api/users/${sub.id}`, {
        ...again,
        name: 'Sub renamed',
      });
      expect(keep.statusCode).toBe(200);
      // With advanced permissions off, the string does not limit the manager.
      await setServerAttributes({});
      const free = await call(manager.cookie, 'POST', '/api/users', body(ALL_BITS));
      expect(free.statusCode).toBe(200);
    } finally {
      await setServerAttributes({});
    }
  });

  it('cannot touch the protected fields of a user it does not manage', async () => {
    const manager = await createUser(t, { userLimit: 10 });
    const other = await createUser(t);
    const full = await read(t.admin, other.id);
    const res = await call(manager.cookie, 'PUT', `/api/users/${other.id}`, {
      ...full,
      attributes: { 'rastro.advancedPerms': ALL_BITS },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: User access denied');
  });
});

describe('the superior administrator (the first administrator) and deletions', () => {
  let second: CreatedUser;
  beforeAll(async () => {
    second = await createUser(t, { administrator: true });
  });

  it('finding: a subordinate administrator cannot rename, impersonate, delete or suspend user 1', async () => {
    const boss = await read(t.admin, 1);
    expectRefused(
      await call(second.cookie, 'PUT', '/api/users/1', { ...boss, name: 'pwned' }),
      'validation.cannotEditSuperiorAdmin',
    );
    expect((await stored(1))!.name).toBe(boss.name);
    expectRefused(await call(second.cookie, 'GET', '/api/session/1'), 'validation.cannotEditSuperiorAdmin');
    expectRefused(await call(second.cookie, 'DELETE', '/api/users/1'), 'validation.cannotEditSuperiorAdmin');
    await setServerAttributes({ 'rastro.enableBilling': true });
    try {
      expectRefused(
        await call(second.cookie, 'POST', '/rastro/users/1/suspend'),
        'validation.cannotEditSuperiorAdmin',
      );
    } finally {
      await setServerAttributes({});
    }
    expect(await stored(1)).toBeDefined();
    // The session stayed the subordinate administrator's own.
    const me = expectStatus<Obj>(await api(t.app, second.cookie, 'GET', '/api/session'), 200);
    expect(me.id).toBe(second.id);
  });

  it('the superior administrator manages the other administrators; each edits itself', async () => {
    const third = await createUser(t, { administrator: true });
    const full = await read(t.admin, third.id);
    expect(
      (await call(t.admin, 'PUT', `/api/users/${third.id}`, { ...full, name: 'Third admin' })).statusCode,
    ).toBe(200);
    const own = await read(third.cookie, third.id);
    expect(
      (await call(third.cookie, 'PUT', `/api/users/${third.id}`, { ...own, phone: '1234' })).statusCode,
    ).toBe(200);
    // An ordinary administrator may edit another ordinary one.
    const peer = await read(second.cookie, third.id);
    expect(
      (await call(second.cookie, 'PUT', `/api/users/${third.id}`, { ...peer, phone: '5678' })).statusCode,
    ).toBe(200);
    expect((await call(t.admin, 'DELETE', `/api/users/${third.id}`)).statusCode).toBe(204);
  });

  it('an administrator sub-user cannot touch the administrator that manages it', async () => {
    const parent = await createUser(t, { administrator: true, userLimit: 5 });
    const child = await createUser(t, { administrator: true });
    await link(t, { userId: parent.id, managedUserId: child.id });
    const full = await read(t.admin, parent.id);
    expectRefused(
      await call(child.cookie, 'PUT', `/api/users/${parent.id}`, { ...full, name: 'renamed' }),
      'validation.cannotEditSuperiorAdmin',
    );
    expectRefused(
      await call(child.cookie, 'GET', `/api/session/${parent.id}`),
      'validation.cannotEditSuperiorAdmin',
    );
    // The other way round is fine.
    const c = await read(parent.cookie, child.id);
    expect(
      (await call(parent.cookie, 'PUT', `/api/users/${child.id}`, { ...c, phone: '42' })).statusCode,
    ).toBe(200);
  });

  it('finding: nobody deletes its own account — user, manager, administrator, the superior one', async () => {
    const plain = await createUser(t);
    const manager = await createUser(t, { userLimit: 3 });
    for (const [cookie, id] of [
      [plain.cookie, plain.id],
      [manager.cookie, manager.id],
      [second.cookie, second.id],
      [t.admin, 1],
    ] as const) {
      expectRefused(await call(cookie, 'DELETE', `/api/users/${id}`), 'validation.cannotDeleteSelf');
      expect(await stored(id)).toBeDefined();
    }
  });
});

describe('SPEC §5 user-form numbers on the API', () => {
  const bad = (res: LightMyRequestResponse, key: Parameters<typeof formatMessage>[0]) => {
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(`IllegalArgumentException: ${formatMessage(key, 'en-US')}`);
  };
  const post = (fields: Record<string, unknown>) =>
    call(t.admin, 'POST', '/api/users', {
      name: 'Abc',
      email: `n${Math.random().toString(36).slice(2, 8)}@x.com`,
      password: 'abcd',
      ...fields,
    });

  it('name: 2 characters refused, 3 accepted', async () => {
    bad(await post({ name: 'Ab' }), 'validation.nameMinLength');
    expect((await post({ name: 'Abc' })).statusCode).toBe(200);
  });

  it('username or e-mail: 3 characters refused, 4 accepted', async () => {
    bad(await post({ email: 'abc' }), 'validation.emailMinLength');
    expect((await post({ email: 'abcd' })).statusCode).toBe(200);
  });

  it('password: required on create, 3 characters refused, 4 accepted', async () => {
    bad(await post({ password: '' }), 'validation.passwordRequired');
    bad(await post({ password: 'abc' }), 'validation.passwordMinLength');
    expect((await post({ password: 'abcd' })).statusCode).toBe(200);
  });

  it('managers are held to the same numbers', async () => {
    const manager = await createUser(t, { userLimit: 10 });
    const res = await call(manager.cookie, 'POST', '/api/users', {
      name: 'Ab',
      email: 'short-name@x.com',
      password: 'abcd',
    });
    bad(res, 'validation.nameMinLength');
  });

  it('edits: changed name / login and a new password are checked; unchanged values are not', async () => {
    const u = await createUser(t);
    const full = await read(t.admin, u.id);
    bad(
      await call(t.admin, 'PUT', `/api/users/${u.id}`, { ...full, name: 'Ab' }),
      'validation.nameMinLength',
    );
    bad(
      await call(t.admin, 'PUT', `/api/users/${u.id}`, { ...full, email: 'abc' }),
      'validation.emailMinLength',
    );
    bad(
      await call(u.cookie, 'PUT', `/api/users/${u.id}`, { ...full, password: 'abc' }),
      'validation.passwordMinLength',
    );
    expect(
      (await call(u.cookie, 'PUT', `/api/users/${u.id}`, { ...full, password: 'abcd' })).statusCode,
    ).toBe(200);
    // A legacy short name (written before these rules) does not block other edits.
    await update(t.ctx.store.sql, 'users', { name: 'Al' }, { id: u.id });
    const legacy = await read(t.admin, u.id);
    expect((await call(t.admin, 'PUT', `/api/users/${u.id}`, { ...legacy, phone: '99' })).statusCode).toBe(
      200,
    );
  });
});
