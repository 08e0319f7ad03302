// Permission matrix (CONTRACT §6): roles × writes × foreign objects. For every non-admin role nothing foreign
// leaks (lists, ?all=true, GET by id) and no refused write changes the store (checked in SQLite afterwards).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { SAMPLES } from '../helpers/samples.ts';
import { select, type Table } from '../support/testSql.ts';

type Obj = { id: number } & Record<string, unknown>;

const RESOURCES: Array<{ path: string; table: string; type: string; cls: string }> = [
  { path: 'devices', table: 'devices', type: 'device', cls: 'Device' },
  { path: 'groups', table: 'groups', type: 'group', cls: 'Group' },
  { path: 'geofences', table: 'geofences', type: 'geofence', cls: 'Geofence' },
  { path: 'drivers', table: 'drivers', type: 'driver', cls: 'Driver' },
  { path: 'calendars', table: 'calendars', type: 'calendar', cls: 'Calendar' },
  { path: 'maintenance', table: 'maintenances', type: 'maintenance', cls: 'Maintenance' },
  { path: 'notifications', table: 'notifications', type: 'notification', cls: 'Notification' },
  { path: 'commands', table: 'commands', type: 'command', cls: 'Command' },
  { path: 'attributes/computed', table: 'computed_attributes', type: 'attribute', cls: 'Attribute' },
  { path: 'orders', table: 'orders', type: 'order', cls: 'Order' },
  { path: 'reports', table: 'reports', type: 'report', cls: 'Report' },
];

type Role =
  'admin' | 'manager' | 'managed' | 'plain' | 'readonly' | 'deviceReadonly' | 'limitCommands' | 'disabled';
const ROLES: Role[] = [
  'admin',
  'manager',
  'managed',
  'plain',
  'readonly',
  'deviceReadonly',
  'limitCommands',
  'disabled',
];

/** Expected outcome of POST /api/<path> for a role: 200, or the exact refusal text (401 for disabled). */
function createOutcome(role: Role, path: string): 200 | 401 | string {
  if (role === 'admin') return 200;
  if (role === 'disabled') return 401;
  if (role === 'readonly') return 'SecurityException: Write access denied';
  if (path === 'attributes/computed') return 'SecurityException: Administrator access required';
  if (path === 'devices' && (role === 'deviceReadonly' || role === 'managed'))
    return 'SecurityException: Write access denied';
  if (path === 'commands' && role === 'limitCommands') return 'SecurityException: Write access denied';
  return 200;
}

describe('permission matrix', () => {
  let t: TestApp;
  const cookies = {} as Record<Role, string>;
  const userIds = {} as Record<Role, number>;
  const foreign: Record<string, Obj> = {};
  let foreignUser: number;

  const snapshot = async () => {
    const sql = t.ctx.store.sql;
    const tables = [...new Set(RESOURCES.map((r) => r.table)), 'users', 'links', 'server'];
    const order = (tb: string) =>
      tb === 'links' ? ['ownerType', 'ownerId', 'propertyType', 'propertyId'] : ['id'];
    const dumps: string[] = [];
    for (const tb of tables)
      dumps.push(JSON.stringify(await select(sql, tb as Table, {}, { orderBy: order(tb) })));
    return dumps.join('\n');
  };

  beforeAll(async () => {
    t = await makeTestApp();
    cookies.admin = t.admin;
    userIds.admin = 1;
    const manager = await createUser(t, { userLimit: 5 });
    Object.assign(cookies, { manager: manager.cookie });
    userIds.manager = manager.id;
    const managed = await createUser(t, {}, manager.cookie);
    cookies.managed = managed.cookie;
    userIds.managed = managed.id;
    for (const role of ['plain', 'readonly', 'deviceReadonly', 'limitCommands', 'disabled'] as const) {
      const flags = role === 'plain' || role === 'disabled' ? {} : { [role]: true };
      const u = await createUser(t, flags);
      cookies[role] = u.cookie;
      userIds[role] = u.id;
    }
    // Disable after login: the live session must become anonymous.
    const d = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${userIds.disabled}`), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/users/${userIds.disabled}`, { ...d, disabled: true }),
      200,
    );
    foreignUser = (await createUser(t, { name: 'Foreign user' })).id;

    // Foreign objects: the admin's, linked to nobody else. One own device per role to test references/links.
    for (const r of RESOURCES) foreign[r.path] = await createObject(t, r.path, SAMPLES[r.path]());
    // Give every role an own device (linked by the admin) and the managed user one via its manager.
    for (const role of ROLES) {
      if (role === 'admin') continue;
      const own = await createDevice(t, { name: `own-${role}` });
      await link(t, { userId: userIds[role], deviceId: own.id });
      foreign[`own-${role}`] = own;
    }
  });
  afterAll(async () => t.close());

  for (const role of ROLES.filter((r) => r !== 'admin')) {
    describe(`role ${role}`, () => {
      const expectRefused = (res: { statusCode: number; body: string }) => {
        if (role === 'disabled') expect(res.statusCode).toBe(401);
        else {
          expect(res.statusCode).toBe(400);
          expect(res.body).toMatch(/^SecurityException: /);
        }
      };

      for (const r of RESOURCES) {
        it(`${r.path}: foreign object never listed nor readable`, async () => {
          for (const url of [`/api/${r.path}`, `/api/${r.path}?all=true`, `/api/${r.path}?keyword=`]) {
            const res = await api(t.app, cookies[role], 'GET', url);
            if (role === 'disabled') {
              expect(res.statusCode).toBe(401);
              continue;
            }
            const ids = expectStatus<Obj[]>(res, 200).map((o) => o.id);
            expect(ids).not.toContain(foreign[r.path].id);
          }
          const one = await api(t.app, cookies[role], 'GET', `/api/${r.path}/${foreign[r.path].id}`);
          if (role === 'disabled') expect(one.statusCode).toBe(401);
          else expect(one.body).toBe(`SecurityException: ${r.cls} access denied`);
        });

        it(`${r.path}: update and delete of the foreign object are refused and change nothing`, async () => {
          const before = await snapshot();
          const body = {
            ...foreign[r.path],
            ...(r.path === 'devices' || r.path === 'drivers' ? {} : { name: 'pwned' }),
          };
          expectRefused(await api(t.app, cookies[role], 'PUT', `/api/${r.path}/${foreign[r.path].id}`, body));
          expectRefused(await api(t.app, cookies[role], 'DELETE', `/api/${r.path}/${foreign[r.path].id}`));
          expect(await snapshot()).toBe(before);
        });

        it(`${r.path}: create follows the role's rights`, async () => {
          const outcome = createOutcome(role, r.path);
          const before = await snapshot();
          const res = await api(t.app, cookies[role], 'POST', `/api/${r.path}`, SAMPLES[r.path]());
          if (outcome === 200) {
            const created = expectStatus<Obj>(res, 200);
            const linked = await select(
              t.ctx.store.sql,
              'links',
              { ownerType: 'user', propertyType: r.type, propertyId: created.id },
              { columns: ['ownerId'] },
            );
            expect(linked).toEqual([{ ownerId: userIds[role] }]);
          } else {
            if (outcome === 401) expect(res.statusCode).toBe(401);
            else expect(res.body).toBe(outcome);
            expect(await snapshot()).toBe(before);
          }
        });
      }

      it('cannot reference foreign groups, calendars or commands', async () => {
        if (role === 'disabled' || role === 'readonly') return;
        const before = await snapshot();
        const cases: Array<[string, Record<string, unknown>, string]> = [
          ['groups', { name: 'sub', groupId: foreign.groups.id }, 'Group'],
          ['geofences', { name: 'g', area: 'CIRCLE (1 1, 5)', calendarId: foreign.calendars.id }, 'Calendar'],
          [
            'notifications',
            { type: 'alarm', notificators: 'web', commandId: foreign.commands.id },
            'Command',
          ],
        ];
        if (role !== 'deviceReadonly' && role !== 'managed') {
          cases.push([
            'devices',
            { name: 'd', uniqueId: `ref-${role}`, groupId: foreign.groups.id },
            'Group',
          ]);
        }
        for (const [path, body, cls] of cases) {
          const res = await api(t.app, cookies[role], 'POST', `/api/${path}`, body);
          expect(res.body, path).toBe(`SecurityException: ${cls} access denied`);
        }
        // Moving an own device into a foreign group is refused too.
        const own = foreign[`own-${role}`];
        const moved = await api(t.app, cookies[role], 'PUT', `/api/devices/${own.id}`, {
          ...own,
          groupId: foreign.groups.id,
        });
        expect(moved.statusCode).toBe(400);
        expect(await snapshot()).toBe(before);
      });

      it('link/unlink with foreign objects or users is refused and changes nothing', async () => {
        const before = await snapshot();
        const own = foreign[`own-${role}`];
        const attempts: Array<Record<string, number>> = [
          { userId: userIds[role], deviceId: foreign.devices.id },
          { userId: userIds[role], groupId: foreign.groups.id },
          { userId: userIds[role], geofenceId: foreign.geofences.id },
          { userId: foreignUser, deviceId: own.id },
          { deviceId: own.id, geofenceId: foreign.geofences.id },
          { deviceId: foreign.devices.id, notificationId: foreign.notifications.id },
          { userId: userIds[role], managedUserId: foreignUser },
          { userId: 1, deviceId: foreign.devices.id },
        ];
        for (const p of attempts) {
          expectRefused(await api(t.app, cookies[role], 'POST', '/api/permissions', p));
          expectRefused(await api(t.app, cookies[role], 'DELETE', '/api/permissions', p));
        }
        expectRefused(await api(t.app, cookies[role], 'POST', '/api/permissions/bulk', attempts.slice(0, 1)));
        expectRefused(await api(t.app, cookies[role], 'GET', `/api/permissions?userId=0&deviceId=0`));
        expect(await snapshot()).toBe(before);
      });

      it('foreign users: not listed, not readable, not writable, no impersonation', async () => {
        const before = await snapshot();
        const list = await api(t.app, cookies[role], 'GET', '/api/users');
        if (role === 'disabled') expect(list.statusCode).toBe(401);
        else expect(expectStatus<Obj[]>(list, 200).map((u) => u.id)).not.toContain(foreignUser);
        const one = await api(t.app, cookies[role], 'GET', `/api/users/${foreignUser}`);
        expectRefused(one);
        const full = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${foreignUser}`), 200);
        expectRefused(
          await api(t.app, cookies[role], 'PUT', `/api/users/${foreignUser}`, { ...full, name: 'pwned' }),
        );
        expectRefused(await api(t.app, cookies[role], 'DELETE', `/api/users/${foreignUser}`));
        expectRefused(await api(t.app, cookies[role], 'GET', `/api/session/${foreignUser}`));
        expectRefused(await api(t.app, cookies[role], 'PUT', '/api/server', { registration: true }));
        expect(await snapshot()).toBe(before);
      });
    });
  }

  it('admin: passes every single-object check and may link anything', async () => {
    for (const r of RESOURCES) {
      expectStatus(await api(t.app, t.admin, 'GET', `/api/${r.path}/${foreign[r.path].id}`), 200);
    }
    await link(t, { userId: foreignUser, deviceId: foreign.devices.id });
    const gone = await api(t.app, t.admin, 'GET', '/api/devices/987654');
    expect(gone.statusCode).toBe(404);
  });
});
