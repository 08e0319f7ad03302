// The permission matrix grown to the advanced permission bits (SPEC §6, docs/permissions.md): for every bit with an
// API, a user whose string has only that bit off is refused (403, nothing written) and a user with only that bit on
// passes the layer; the QR driver and a shared-link guest are refused every such call; a basic edition or
// enableAdvancedPerms off lets everyone through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  BITS_WITHOUT_API,
  PERMISSION_LAYOUT,
  formatMessage,
  permissionIndex,
  permissionStringFromBits,
  setPermissionBit,
  type MessageLocale,
  type PermissionAction,
  type PermissionArea,
} from '@rastro/domain';
import type { Config } from '../../src/config.ts';
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
import { PERMISSION_CASES, send, type Caller } from './permission-cases.ts';
import { update } from '../support/testSql.ts';

const NS = 'rastro';

async function setAttributes(t: TestApp, userId: number, attrs: Record<string, unknown>): Promise<void> {
  await update(t.ctx.store.sql, 'users', { attributes: JSON.stringify(attrs) }, { id: userId });
}
const setPerms = async (t: TestApp, userId: number, perms: string) =>
  await setAttributes(t, userId, { [`${NS}.advancedPerms`]: perms });

async function enableAdvancedPerms(t: TestApp, on: boolean): Promise<void> {
  const server = expectStatus<Record<string, unknown>>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
  const attributes = { ...(server.attributes as object), [`${NS}.enableAdvancedPerms`]: on };
  expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);
}

const bitOf = (area: PermissionArea, action: PermissionAction) => permissionIndex(area, action)!;
const refusal = (area: PermissionArea, action: PermissionAction, lang: MessageLocale = 'pt-BR') =>
  `SecurityException: ${formatMessage('denied.permission', lang, {
    action: formatMessage(`permissions.action.${action}`, lang),
    area: formatMessage(`permissions.area.${area}`, lang),
  })}`;

async function managerCaller(t: TestApp): Promise<Caller> {
  const u = await createUser(t, { userLimit: 10, deviceLimit: -1 });
  return { id: u.id, cookie: u.cookie };
}

async function appWith(overrides: Partial<Config> = {}, advanced = true): Promise<TestApp> {
  const t = await makeTestApp(overrides);
  await enableAdvancedPerms(t, advanced);
  return t;
}

describe('advanced permission bits: one bit off refuses, one bit on allows', () => {
  let t: TestApp;
  let off: Caller;
  let on: Caller;
  beforeAll(async () => {
    t = await appWith();
    off = await managerCaller(t);
    on = await managerCaller(t);
  });
  afterAll(async () => t.close());

  it('every bit of PERMISSION_LAYOUT has a case here or is documented as having no API', () => {
    const covered = new Set(PERMISSION_CASES.map((c) => `${c.area}.${c.action}`));
    const without = new Set(BITS_WITHOUT_API.map((c) => `${c.area}.${c.action}`));
    for (const area of Object.keys(PERMISSION_LAYOUT) as PermissionArea[])
      for (const action of Object.keys(PERMISSION_LAYOUT[area]) as PermissionAction[])
        expect(
          covered.has(`${area}.${action}`) || without.has(`${area}.${action}`),
          `${area}.${action}`,
        ).toBe(true);
  });

  for (const c of PERMISSION_CASES) {
    it(`${c.area}.${c.action}${c.via ? ` (${c.via})` : ''}: only this bit off ⇒ 403 and nothing written; only this bit on ⇒ passes${
      c.note ? ` (${c.note})` : ''
    }`, async () => {
      const bit = bitOf(c.area, c.action);
      await setPerms(t, off.id, setPermissionBit(ALL_PERMISSIONS, bit, false));
      await setPerms(t, on.id, permissionStringFromBits([bit]));

      const refusedCall = await c.make(t, off);
      const res = await send(t, off.cookie, refusedCall);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).toBe(refusal(c.area, c.action));
      if (refusedCall.written) expect(await refusedCall.written()).toBe(false);

      const allowedCall = await c.make(t, on);
      const ok = await send(t, on.cookie, allowedCall);
      expect(allowedCall.ok, ok.body).toContain(ok.statusCode);
      if (allowedCall.written && ok.statusCode < 300) expect(await allowedCall.written()).toBe(true);
    });
  }

  it('a saved command is judged by its stored type: a saved engineStop needs devices.lock, not devices.command', async () => {
    const d = await createDevice(t);
    await link(t, { userId: off.id, deviceId: d.id });
    const saved = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/commands', { type: 'engineStop', description: 'Stop' }),
      200,
    );
    await link(t, { userId: off.id, commandId: saved.id });
    await setPerms(t, off.id, setPermissionBit(ALL_PERMISSIONS, bitOf('devices', 'lock'), false));
    const res = await api(t.app, off.cookie, 'POST', '/api/commands/send', {
      id: saved.id,
      deviceId: d.id,
      type: 'custom',
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(refusal('devices', 'lock'));
  });

  it('a normal geofence delete needs geofences.delete, an anchor delete only anchor.unlock', async () => {
    await setPerms(t, on.id, permissionStringFromBits([bitOf('anchor', 'unlock')]));
    const fence = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/geofences', { name: 'Depot', area: 'CIRCLE (1 2, 300)' }),
      200,
    );
    await link(t, { userId: on.id, geofenceId: fence.id });
    const res = await api(t.app, on.cookie, 'DELETE', `/api/geofences/${fence.id}`);
    expect(res.body).toBe(refusal('geofences', 'delete'));
  });

  it('the refusal is written in the Accept-Language of the request', async () => {
    await setPerms(t, off.id, setPermissionBit(ALL_PERMISSIONS, bitOf('groups', 'view'), false));
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/groups',
      headers: { cookie: off.cookie, 'accept-language': 'es-AR,es;q=0.9' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(refusal('groups', 'view', 'es'));
    expect(res.body).toBe('SecurityException: Permiso denegado: ver (grupos)');
  });

  it('the map still loads: GET /api/devices and /api/positions need no bit', async () => {
    await setPerms(t, off.id, '0'.repeat(32));
    expectStatus(await api(t.app, off.cookie, 'GET', '/api/devices'), 200);
    expectStatus(await api(t.app, off.cookie, 'GET', '/api/positions'), 200);
    expectStatus(await api(t.app, off.cookie, 'GET', '/api/session'), 200);
  });

  it('percent-encoded or slash-padded paths do not slip past the layer', async () => {
    const d = await createDevice(t);
    await link(t, { userId: off.id, deviceId: d.id });
    await setPerms(t, off.id, setPermissionBit(ALL_PERMISSIONS, bitOf('devices', 'delete'), false));
    for (const url of [`/api/device%73/${d.id}`, `/api//devices/${d.id}`, `/api/devices/${d.id}%2F`]) {
      const res = await api(t.app, off.cookie, 'DELETE', url);
      expect([403, 404], url).toContain(res.statusCode);
    }
    expectStatus(await api(t.app, t.admin, 'GET', `/api/devices/${d.id}`), 200);
  });

  it('no user: the route answers 401 as before', async () => {
    expect((await api(t.app, null, 'PUT', '/api/devices/1', {})).statusCode).toBe(401);
  });
});

describe('the QR driver and shared-link guests are refused every call of an area', () => {
  let t: TestApp;
  let driver: Caller;
  let guest: Caller;
  let sharedDeviceId: number;
  beforeAll(async () => {
    t = await appWith();
    const u = await createUser(t, { email: 'motorista@rastro.demo', userLimit: 10 });
    // the driver even has every bit: SPEC §6 step 1 comes first
    await setAttributes(t, u.id, { [`${NS}.isQrDriverId`]: true, [`${NS}.advancedPerms`]: ALL_PERMISSIONS });
    driver = { id: u.id, cookie: u.cookie };
    const d = await createDevice(t);
    sharedDeviceId = d.id;
    const token = expectStatus<string>(
      await postForm(t.app, t.admin, '/api/share/device', {
        deviceId: String(d.id),
        expiration: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      200,
    );
    const session = await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
    const g = expectStatus<{ id: number }>(session, 200);
    guest = { id: g.id, cookie: `JSESSIONID=${session.cookies.find((c) => c.name === 'JSESSIONID')!.value}` };
  });
  afterAll(async () => t.close());

  for (const c of PERMISSION_CASES) {
    it(`${c.area}.${c.action}${c.via ? ` (${c.via})` : ''}: QR driver and guest ⇒ 403, nothing written`, async () => {
      for (const [who, key] of [
        [driver, 'denied.qrDriver'],
        [guest, 'denied.sharedGuest'],
      ] as const) {
        const call = await c.make(t, who);
        const res = await send(t, who.cookie, call);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.body).toBe(`SecurityException: ${formatMessage(key, 'pt-BR')}`);
        if (call.written) expect(await call.written()).toBe(false);
      }
    });
  }

  it('a guest still loads its shared device on the map', async () => {
    const list = expectStatus<Array<{ id: number }>>(
      await api(t.app, guest.cookie, 'GET', '/api/devices'),
      200,
    );
    expect(list.map((d) => d.id)).toContain(sharedDeviceId);
  });
});

describe('the bits apply only on a plus server with enableAdvancedPerms on', () => {
  const zeros = async (t: TestApp) => {
    const u = await managerCaller(t);
    await setPerms(t, u.id, '0'.repeat(32));
    return u;
  };

  it('basic edition: a user with an all-zero string is allowed', async () => {
    const t = await appWith({ edition: 'basic' });
    try {
      const u = await zeros(t);
      for (const c of PERMISSION_CASES.filter((x) => !x.note)) {
        const call = await c.make(t, u);
        const res = await send(t, u.cookie, call);
        expect(call.ok, `${c.area}.${c.action}: ${res.body}`).toContain(res.statusCode);
      }
    } finally {
      await t.close();
    }
  });

  it('enableAdvancedPerms off: a user with an all-zero string is allowed', async () => {
    const t = await appWith({}, false);
    try {
      const u = await zeros(t);
      for (const c of PERMISSION_CASES.filter((x) => !x.note)) {
        const call = await c.make(t, u);
        const res = await send(t, u.cookie, call);
        expect(call.ok, `${c.area}.${c.action}: ${res.body}`).toContain(res.statusCode);
      }
    } finally {
      await t.close();
    }
  });
});
