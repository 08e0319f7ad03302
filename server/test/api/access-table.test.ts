// The access table (packages/domain access.ts, issue #28) and the server agree: for each screen or action the
// table refuses to a role and whose data the server guards, the server refuses that role the screen's call: 403 and
// the translated refusal (Rastro's own, in the request's language), or Traccar's readonly refusal (400, its English
// wording on the wire, which the web app translates). One row per refusal, as the refused role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allows,
  formatMessage,
  permissionStringFromBits,
  type Capability,
  type MessageLocale,
  type PermissionAction,
  type PermissionArea,
  type PermissionContext,
} from '@rastro/domain';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  postForm,
  type TestApp,
} from '../helpers/index.ts';
import { update } from '../support/testSql.ts';

const NS = 'rastro';
// the sub-user's bits: devices (8), notifications (32), geofences (40) and reports (72) views only
const SUB_BITS = [8, 32, 40, 72];

type Who = 'sub' | 'readonly' | 'driver' | 'guest' | 'manager';
interface Row {
  who: Who;
  capability: Capability;
  method: 'GET' | 'POST';
  path: (deviceId: number) => string;
  body?: Record<string, unknown>;
  refusal: (lang: MessageLocale) => string;
  /** 403 for Rastro's permission gate; Traccar's own refusals are 400 (CONTRACT §1 errors, §6 readonly). */
  status?: number;
}

const permission = (area: PermissionArea, action: PermissionAction) => (lang: MessageLocale) =>
  `SecurityException: ${formatMessage('denied.permission', lang, {
    action: formatMessage(`permissions.action.${action}`, lang),
    area: formatMessage(`permissions.area.${area}`, lang),
  })}`;
const role = (key: 'denied.qrDriver' | 'denied.sharedGuest') => (lang: MessageLocale) =>
  `SecurityException: ${formatMessage(key, lang)}`;

const ROWS: Row[] = [
  {
    who: 'sub',
    capability: 'menu.users',
    method: 'GET',
    path: () => '/api/users',
    refusal: permission('users', 'view'),
  },
  {
    who: 'sub',
    // the reports bit without the events bit: no events report (menu, report list, route and API)
    capability: 'screen.eventsReport',
    method: 'GET',
    path: (id) => `/api/reports/events?deviceId=${id}&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`,
    refusal: permission('events', 'view'),
  },
  {
    who: 'sub',
    capability: 'screen.groups',
    method: 'GET',
    path: () => '/api/groups',
    refusal: permission('groups', 'view'),
  },
  {
    who: 'sub',
    capability: 'screen.commands',
    method: 'GET',
    path: () => '/api/commands',
    refusal: permission('commands', 'view'),
  },
  {
    who: 'sub',
    capability: 'screen.computed',
    method: 'GET',
    path: () => '/api/attributes/computed',
    refusal: permission('computed', 'view'),
  },
  {
    who: 'sub',
    capability: 'menu.drivers',
    method: 'GET',
    path: () => '/api/drivers',
    refusal: permission('drivers', 'view'),
  },
  {
    who: 'sub',
    capability: 'screen.autolink',
    method: 'POST',
    path: () => `/${NS}/autolink`,
    body: { uniqueId: 'walk-sub-0001', name: 'Walk' },
    refusal: permission('devices', 'create'),
  },
  {
    who: 'sub',
    capability: 'device.block',
    method: 'POST',
    path: () => '/api/commands/send',
    refusal: permission('devices', 'lock'),
  },
  {
    who: 'driver',
    capability: 'screen.deviceDetail',
    method: 'GET',
    path: (id) => `/api/devices/${id}`,
    refusal: role('denied.qrDriver'),
  },
  {
    who: 'driver',
    capability: 'screen.dashboard',
    method: 'GET',
    path: () => `/${NS}/dashboard`,
    refusal: role('denied.qrDriver'),
  },
  {
    who: 'driver',
    capability: 'screen.geofences',
    method: 'GET',
    path: () => '/api/geofences',
    refusal: role('denied.qrDriver'),
  },
  {
    who: 'guest',
    // the guest's home is its vehicle's detail, drawn from the live list; the device screens' calls stay refused
    capability: 'screen.devices',
    method: 'GET',
    path: (id) => `/api/devices/${id}`,
    refusal: role('denied.sharedGuest'),
  },
  {
    who: 'guest',
    capability: 'screen.notifications',
    method: 'GET',
    path: () => '/api/notifications',
    refusal: role('denied.sharedGuest'),
  },
  {
    who: 'guest',
    capability: 'screen.reports',
    method: 'GET',
    path: (id) => `/api/reports/summary?deviceId=${id}&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`,
    refusal: role('denied.sharedGuest'),
  },
  {
    who: 'readonly',
    capability: 'screen.autolink',
    method: 'POST',
    path: () => `/${NS}/autolink`,
    body: { uniqueId: 'walk-ro-0001', name: 'Walk' },
    refusal: () => 'SecurityException: Write access denied',
    status: 400,
  },
];

describe('the server refuses what the access table refuses (issue #28)', () => {
  let t: TestApp;
  let deviceId = 0;
  const callers = {} as Record<Who, { cookie: string; ctx: PermissionContext }>;

  beforeAll(async () => {
    t = await makeTestApp();
    const server = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    const attributes = { ...(server.attributes as object), [`${NS}.enableAdvancedPerms`]: true };
    const stored = expectStatus<PermissionContext['server']>(
      await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }),
      200,
    );
    const d = await createDevice(t);
    deviceId = d.id;
    const make = async (who: Who, fields: Record<string, unknown>, attrs: Record<string, unknown> = {}) => {
      const u = await createUser(t, fields);
      await update(t.ctx.store.sql, 'users', { attributes: JSON.stringify(attrs) }, { id: u.id });
      await link(t, { userId: u.id, deviceId });
      const user = expectStatus<PermissionContext['user']>(
        await api(t.app, u.cookie, 'GET', '/api/session'),
        200,
      );
      callers[who] = { cookie: u.cookie, ctx: { user, server: stored, isPlus: true, ns: NS } };
    };
    await make('sub', {}, { [`${NS}.advancedPerms`]: permissionStringFromBits(SUB_BITS) });
    await make('readonly', { readonly: true });
    await make('driver', {}, { [`${NS}.isQrDriverId`]: true });
    await make('manager', { userLimit: 10 });

    const token = expectStatus<string>(
      await postForm(t.app, t.admin, '/api/share/device', {
        deviceId: String(deviceId),
        expiration: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      200,
    );
    const session = await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
    const guest = expectStatus<PermissionContext['user']>(session, 200);
    const cookie = `JSESSIONID=${session.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    callers.guest = { cookie, ctx: { user: guest, server: stored, isPlus: true, ns: NS } };
  });
  afterAll(async () => t.close());

  for (const row of ROWS) {
    it(`${row.who}: ${row.capability} refused by the table, ${row.method} ${row.path(0)} ⇒ ${row.status ?? 403}`, async () => {
      const caller = callers[row.who];
      expect(allows(caller.ctx, row.capability)).toBe(false);
      const body =
        row.path(0) === '/api/commands/send' ? { deviceId, type: 'engineStop', attributes: {} } : row.body;
      const res = await api(t.app, caller.cookie, row.method, row.path(deviceId), body);
      expect(res.statusCode, res.body).toBe(row.status ?? 403);
      expect(res.body.startsWith(row.refusal('pt-BR')), res.body).toBe(true);
    });
  }

  it('the refusal is in the language the caller asks for', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/groups',
      headers: { cookie: callers.sub.cookie, 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(permission('groups', 'view')('es'));
  });

  it('and what the table opens, the server serves: the manager loads the users list and the groups', async () => {
    const { cookie, ctx } = callers.manager;
    expect(allows(ctx, 'screen.users') && allows(ctx, 'screen.groups')).toBe(true);
    expectStatus(await api(t.app, cookie, 'GET', '/api/users'), 200);
    expectStatus(await api(t.app, cookie, 'GET', '/api/groups'), 200);
    expect(allows(callers.sub.ctx, 'screen.geofences')).toBe(true);
    expectStatus(await api(t.app, callers.sub.cookie, 'GET', '/api/geofences'), 200);
  });
});
