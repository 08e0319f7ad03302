// One API call per advanced permission bit with an API (docs/permissions.md), for the permission-layer tests: each
// case makes a fresh target the caller can reach through Traccar's links, the call, what "written" means when read
// back from SQLite, and the statuses of an allowed call.
import type { LightMyRequestResponse } from 'fastify';
import type { PermissionAction, PermissionArea } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  postForm,
  type TestApp,
} from '../helpers/index.ts';
import { SAMPLES } from '../helpers/samples.ts';
import { findUserAsync } from '../../src/traccar/auth.ts';
import { createShare } from '../../src/traccar/share.ts';
import { count as countRows, first, type Table, type Where } from '../support/testSql.ts';

export interface Caller {
  id: number;
  cookie: string;
}

export interface Prepared {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  form?: Record<string, string>;
  /** Reads the store back: true when the call changed it (absent for reads). */
  written?: () => Promise<boolean>;
  /** Statuses of the call when the layer lets it through. */
  ok: number[];
}

export interface PermissionCase {
  area: PermissionArea;
  action: PermissionAction;
  /** Why an allowed call still ends in a Traccar refusal (admin-only routes). */
  note?: string;
  /** Which call, when an area × action has more than one case. */
  via?: string;
  make(t: TestApp, caller: Caller): Promise<Prepared>;
}

type Obj = { id: number } & Record<string, unknown>;

let seq = 0;
const unique = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`;
const count = async (t: TestApp, table: string, where: Where = {}) =>
  await countRows(t.ctx.store.sql, table as Table, where);
const exists = async (t: TestApp, table: string, id: number) => (await count(t, table, { id })) > 0;
const marked = async (t: TestApp, table: string, id: number, marker: string) =>
  String((await first<Obj>(t.ctx.store.sql, table as Table, { id }))?.attributes).includes(marker);

export function send(t: TestApp, cookie: string, p: Prepared): Promise<LightMyRequestResponse> {
  if (p.form) return postForm(t.app, cookie, p.url, p.form);
  return api(t.app, cookie, p.method, p.url, p.body);
}

async function ownDevice(t: TestApp, c: Caller): Promise<Obj> {
  const d = await createDevice(t);
  await link(t, { userId: c.id, deviceId: d.id });
  return d;
}

async function ownObject(t: TestApp, c: Caller, path: string, type: string): Promise<Obj> {
  const o = await createObject(t, path, SAMPLES[path]());
  await link(t, { userId: c.id, [`${type}Id`]: o.id });
  return o;
}

async function managedUser(t: TestApp, c: Caller): Promise<Obj> {
  const u = await createUser(t, { disabled: false });
  await link(t, { userId: c.id, managedUserId: u.id });
  return expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${u.id}`), 200);
}

const SPAN = `from=${encodeURIComponent('2024-01-01T00:00:00Z')}&to=${encodeURIComponent('2024-01-02T00:00:00Z')}`;

function engine(type: string, action: PermissionAction): PermissionCase {
  return {
    area: 'devices',
    action,
    async make(t, c) {
      const d = await ownDevice(t, c);
      const n = async () => await count(t, 'queued_commands', { deviceId: d.id });
      return {
        method: 'POST',
        url: '/api/commands/send',
        body: { id: 0, deviceId: d.id, type, attributes: type === 'custom' ? { data: 'hello' } : {} },
        written: async () => (await n()) > 0,
        ok: [200, 202],
      };
    },
  };
}

/** view / create / edit / delete of a CRUD resource under /api/{path}, linked to the caller as `type`. */
function crud(
  area: PermissionArea,
  path: string,
  table: string,
  type: string,
  adminOnly = false,
): PermissionCase[] {
  const note = adminOnly ? 'writes of this resource are administrator-only in Traccar (400)' : undefined;
  const okWrite = (status: number) => (adminOnly ? [400] : [status]);
  return [
    {
      area,
      action: 'view',
      make: async () => ({ method: 'GET', url: `/api/${path}`, ok: [200] }),
    },
    {
      area,
      action: 'create',
      note,
      async make(t) {
        const before = await count(t, table);
        return {
          method: 'POST',
          url: `/api/${path}`,
          body: SAMPLES[path](),
          written: async () => (await count(t, table)) > before,
          ok: okWrite(200),
        };
      },
    },
    {
      area,
      action: 'edit',
      note,
      async make(t, c) {
        const o = await ownObject(t, c, path, type);
        const marker = unique('edited');
        return {
          method: 'PUT',
          url: `/api/${path}/${o.id}`,
          body: { ...o, attributes: { ...(o.attributes as object), marker } },
          written: async () => await marked(t, table, o.id, marker),
          ok: okWrite(200),
        };
      },
    },
    {
      area,
      action: 'delete',
      note,
      async make(t, c) {
        const o = await ownObject(t, c, path, type);
        return {
          method: 'DELETE',
          url: `/api/${path}/${o.id}`,
          written: async () => !(await exists(t, table, o.id)),
          ok: okWrite(204),
        };
      },
    },
  ];
}

export const PERMISSION_CASES: PermissionCase[] = [
  {
    area: 'devices',
    action: 'view',
    async make(t, c) {
      const d = await ownDevice(t, c);
      return { method: 'GET', url: `/api/devices/${d.id}`, ok: [200] };
    },
  },
  engine('engineStop', 'lock'),
  engine('engineResume', 'unlock'),
  engine('custom', 'command'),
  {
    area: 'devices',
    action: 'create',
    async make(t) {
      const uniqueId = unique('dev');
      return {
        method: 'POST',
        url: '/api/devices',
        body: { name: 'New', uniqueId },
        written: async () => (await count(t, 'devices', { uniqueId })) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'devices',
    action: 'edit',
    async make(t, c) {
      const d = await ownDevice(t, c);
      const name = unique('renamed');
      return {
        method: 'PUT',
        url: `/api/devices/${d.id}`,
        body: { ...d, name },
        written: async () => (await count(t, 'devices', { name })) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'devices',
    action: 'delete',
    async make(t, c) {
      const d = await ownDevice(t, c);
      return {
        method: 'DELETE',
        url: `/api/devices/${d.id}`,
        written: async () => !(await exists(t, 'devices', d.id)),
        ok: [204],
      };
    },
  },
  {
    area: 'users',
    action: 'view',
    make: async () => ({ method: 'GET', url: '/api/users', ok: [200] }),
  },
  {
    area: 'users',
    action: 'create',
    async make(t) {
      const email = `${unique('new')}@example.com`;
      return {
        method: 'POST',
        url: '/api/users',
        // A manager with a permission string gives its sub-users no bit it lacks (userRules.ts): here none.
        body: {
          name: 'New user',
          email,
          password: 'secret-pass',
          attributes: { [`${t.ctx.config.ns}.advancedPerms`]: '0'.repeat(32) },
        },
        written: async () => (await count(t, 'users', { email })) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'users',
    action: 'edit',
    async make(t, c) {
      const u = await managedUser(t, c);
      const name = unique('renamed');
      return {
        method: 'PUT',
        url: `/api/users/${u.id}`,
        body: { ...u, name },
        written: async () => (await count(t, 'users', { name })) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'users',
    action: 'selfEdit',
    async make(t, c) {
      const self = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${c.id}`), 200);
      const name = unique('self');
      return {
        method: 'PUT',
        url: `/api/users/${c.id}`,
        body: { ...self, name },
        written: async () => (await count(t, 'users', { name })) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'users',
    action: 'delete',
    async make(t, c) {
      const u = await managedUser(t, c);
      return {
        method: 'DELETE',
        url: `/api/users/${u.id}`,
        written: async () => !(await exists(t, 'users', u.id)),
        ok: [204],
      };
    },
  },
  ...(['lock', 'unlock'] as const).map((action): PermissionCase => ({
    area: 'users',
    action,
    note: 'suspend / reactivate are administrator-only (400)',
    async make(t, c) {
      const u = await managedUser(t, c);
      const verb = action === 'lock' ? 'suspend' : 'reactivate';
      return { method: 'POST', url: `/${t.ctx.config.ns}/users/${u.id}/${verb}`, ok: [400] };
    },
  })),
  {
    area: 'users',
    action: 'command',
    async make(t, c) {
      const u = await managedUser(t, c);
      return {
        method: 'POST',
        url: `/api/notifications/send/web?userId=${u.id}`,
        body: { subject: 'Hello', body: 'hi' },
        ok: [204],
      };
    },
  },
  {
    area: 'anchor',
    action: 'lock',
    async make(t, c) {
      const d = await ownDevice(t, c);
      const name = unique('Anchor');
      return {
        method: 'POST',
        url: '/api/geofences',
        body: { name, area: 'CIRCLE (-23.55 -46.63, 150)', attributes: { deviceId: d.id, isAnchor: true } },
        written: async () => (await count(t, 'geofences', { name })) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'anchor',
    action: 'unlock',
    async make(t, c) {
      const d = await ownDevice(t, c);
      const g = await createObject(t, 'geofences', {
        name: 'Anchor',
        area: 'CIRCLE (-23.55 -46.63, 150)',
        attributes: { deviceId: d.id, isAnchor: true },
      });
      await link(t, { userId: c.id, geofenceId: g.id });
      await link(t, { deviceId: d.id, geofenceId: g.id });
      return {
        method: 'DELETE',
        url: `/api/geofences/${g.id}`,
        written: async () => !(await exists(t, 'geofences', g.id)),
        ok: [204],
      };
    },
  },
  ...crud('notifications', 'notifications', 'notifications', 'notification'),
  {
    area: 'events',
    action: 'view',
    async make(t, c) {
      const d = await ownDevice(t, c);
      return { method: 'GET', url: `/api/reports/events?deviceId=${d.id}&${SPAN}`, ok: [200] };
    },
  },
  ...crud('geofences', 'geofences', 'geofences', 'geofence'),
  ...crud('groups', 'groups', 'groups', 'group'),
  ...crud('drivers', 'drivers', 'drivers', 'driver'),
  ...crud('calendars', 'calendars', 'calendars', 'calendar'),
  ...crud('maintenance', 'maintenance', 'maintenances', 'maintenance'),
  ...crud('commands', 'commands', 'commands', 'command'),
  ...crud('computed', 'attributes/computed', 'computed_attributes', 'attribute', true),
  {
    area: 'reports',
    action: 'view',
    async make(t, c) {
      const d = await ownDevice(t, c);
      return { method: 'GET', url: `/api/reports/route?deviceId=${d.id}&${SPAN}`, ok: [200] };
    },
  },
  {
    area: 'reports',
    action: 'view',
    via: 'the dashboard',
    async make(t, c) {
      const d = await ownDevice(t, c);
      const url = `/${t.ctx.config.ns}/dashboard?deviceId=${d.id}&${SPAN}`;
      return { method: 'GET', url, ok: [200] };
    },
  },
  {
    area: 'reports',
    action: 'view',
    via: 'the scores',
    async make(t, c) {
      const d = await ownDevice(t, c);
      const url = `/${t.ctx.config.ns}/scores?by=device&deviceId=${d.id}&${SPAN}`;
      return { method: 'GET', url, ok: [200] };
    },
  },
  ...crud('reports', 'reports', 'reports', 'report').filter((c) => c.action !== 'view'),
  {
    area: 'share',
    action: 'create',
    async make(t, c) {
      const d = await ownDevice(t, c);
      const before = await count(t, 'users', { temporary: 1 });
      return {
        method: 'POST',
        url: '/api/share/device',
        form: { deviceId: String(d.id), expiration: new Date(Date.now() + 3_600_000).toISOString() },
        written: async () => (await count(t, 'users', { temporary: 1 })) > before,
        ok: [200],
      };
    },
  },
  {
    area: 'share',
    action: 'create',
    note: 'Plus feature',
    async make(t, c) {
      const d = await ownDevice(t, c);
      const n = async () => await count(t, 'shares', { deviceId: d.id });
      return {
        method: 'POST',
        url: `/${t.ctx.config.ns}/shares`,
        body: { deviceId: d.id, expirationTime: new Date(Date.now() + 3_600_000).toISOString() },
        written: async () => (await n()) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'share',
    action: 'view',
    note: 'Plus feature',
    async make(t) {
      return { method: 'GET', url: `/${t.ctx.config.ns}/shares`, ok: [200] };
    },
  },
  {
    area: 'share',
    action: 'edit',
    note: 'Plus feature',
    async make(t, c) {
      const id = await ownShare(t, c);
      const until = new Date(Date.now() + 7_200_000).toISOString();
      return {
        method: 'PUT',
        url: `/${t.ctx.config.ns}/shares/${id}`,
        body: { expirationTime: until },
        written: async () => (await count(t, 'shares', { id, expirationTime: until })) > 0,
        ok: [200],
      };
    },
  },
  {
    area: 'share',
    action: 'delete',
    note: 'Plus feature',
    async make(t, c) {
      const id = await ownShare(t, c);
      return {
        method: 'DELETE',
        url: `/${t.ctx.config.ns}/shares/${id}`,
        written: async () => !(await exists(t, 'shares', id)),
        ok: [204],
      };
    },
  },
];

/** A share created by the caller (straight through the service: the caller may lack share.create). */
async function ownShare(t: TestApp, c: Caller): Promise<number> {
  const d = await ownDevice(t, c);
  // A guest cannot create links: its refused-call case gets one of the administrator's.
  const self = (await findUserAsync(t.ctx, c.id))!;
  const owner = self.temporary ? (await findUserAsync(t.ctx, 1))! : self;
  const s = await createShare(
    t.ctx,
    owner,
    { type: 'device', id: d.id },
    new Date(Date.now() + 3_600_000),
    true,
  );
  return s.id;
}
