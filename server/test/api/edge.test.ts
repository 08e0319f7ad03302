// Issue #27: the one edge (server/src/edge.ts). The permission gate, the engine-block interlock and the handler see
// the same parsed request: a command type is normalised once (trim, Traccar's spelling) before anything decides;
// an edit that makes or unmakes an anchor needs the anchor bits; a JSON route refuses other media (415); bodies
// over the limit are refused (413), OsmAnd on the web port with the OsmAnd port's limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  DEFAULT_NS,
  kmhToKnots,
  permissionIndex,
  setPermissionBit,
  type PermissionAction,
  type PermissionArea,
} from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  ingestPosition,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { OSMAND_MAX_BODY } from '../../src/live/osmand.ts';
import { count as countRows, first, remove, type Table, type Where } from '../support/testSql.ts';

const NS = DEFAULT_NS;
const without = (...bits: Array<[PermissionArea, PermissionAction]>) =>
  bits.reduce(
    (s, [area, action]) => setPermissionBit(s, permissionIndex(area, action)!, false),
    ALL_PERMISSIONS,
  );
const count = async (t: TestApp, table: Table, where: Where = {}) =>
  await countRows(t.ctx.store.sql, table, where);

describe('the edge: one parsed request for the gate, the interlock and the handler', () => {
  let t: TestApp;
  let sub: CreatedUser;
  let noAnchor: CreatedUser;
  let device: { id: number; uniqueId: string };

  beforeAll(async () => {
    t = await makeTestApp();
    const server = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    const attributes = { ...(server.attributes as object), [`${NS}.enableAdvancedPerms`]: true };
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);
    // may send commands, may not block or unblock
    sub = await createUser(t, {
      attributes: { [`${NS}.advancedPerms`]: without(['devices', 'lock'], ['devices', 'unlock']) },
    });
    // may create and edit geofences, may not make or unmake anchors
    noAnchor = await createUser(t, {
      attributes: { [`${NS}.advancedPerms`]: without(['anchor', 'lock'], ['anchor', 'unlock']) },
    });
    device = await createDevice(t);
    await link(t, { userId: sub.id, deviceId: device.id });
  });
  afterAll(async () => t.close());

  const queued = async (deviceId: number) => await count(t, 'queued_commands', { deviceId });
  const send = (cookie: string, body: Record<string, unknown>) =>
    api(t.app, cookie, 'POST', '/api/commands/send', { id: 0, attributes: {}, ...body });

  for (const type of [' engineStop ', 'engineStop\t', 'ENGINESTOP', ' EngineStop']) {
    it(`a sub-user without devices.lock gets 403 for ${JSON.stringify(type)} and nothing is queued`, async () => {
      const res = await send(sub.cookie, { deviceId: device.id, type });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).toMatch(/^SecurityException: Permissão negada: bloquear/);
      expect(await queued(device.id)).toBe(0);
    });
  }

  for (const type of [' engineResume ', 'engineResume\t', 'ENGINERESUME']) {
    it(`a sub-user without devices.unlock gets 403 for ${JSON.stringify(type)} and nothing is queued`, async () => {
      const res = await send(sub.cookie, { deviceId: device.id, type });
      expect(res.statusCode, res.body).toBe(403);
      expect(await queued(device.id)).toBe(0);
    });
  }

  it('the same sub-user still sends other commands, and the queued type is the normalised one', async () => {
    const res = await send(sub.cookie, { deviceId: device.id, type: ' POSITIONSINGLE\t' });
    expect(res.statusCode, res.body).toBe(202);
    expect((JSON.parse(res.body) as { type: string }).type).toBe('positionSingle');
    const row = (await first(
      t.ctx.store.sql,
      'queued_commands',
      { deviceId: device.id },
      { columns: ['type'], orderBy: ['id desc'] },
    )) as { type: string };
    expect(row.type).toBe('positionSingle');
    await remove(t.ctx.store.sql, 'queued_commands', { deviceId: device.id });
  });

  it('the interlock sees the normalised type: a padded, upper-case engineStop to a moving vehicle is refused', async () => {
    const moving = await createDevice(t);
    await ingestPosition(t, { uniqueId: moving.uniqueId, fixTime: new Date(), speed: kmhToKnots(80) });
    const res = await send(t.admin, { deviceId: moving.id, type: ' ENGINESTOP\t' });
    expect(res.statusCode, res.body).toBe(403);
    expect(await queued(moving.id)).toBe(0);
  });

  it('a PUT that turns a plain geofence into an anchor needs anchor.lock', async () => {
    const g = await createObject(
      t,
      'geofences',
      { name: 'Plain', area: 'CIRCLE (1 1, 100)', attributes: {} },
      noAnchor.cookie,
    );
    const res = await api(t.app, noAnchor.cookie, 'PUT', `/api/geofences/${g.id}`, {
      ...g,
      attributes: { isAnchor: true },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).toMatch(/^SecurityException: Permissão negada/);
    const stored = (await first(t.ctx.store.sql, 'geofences', { id: g.id }, { columns: ['attributes'] })) as {
      attributes: string;
    };
    expect(JSON.parse(stored.attributes)).not.toHaveProperty('isAnchor');
    // an ordinary edit of the same geofence stays allowed
    expectStatus(
      await api(t.app, noAnchor.cookie, 'PUT', `/api/geofences/${g.id}`, { ...g, name: 'Renamed' }),
      200,
    );
  });

  it('a PUT that removes the anchor flag from an anchor needs anchor.unlock', async () => {
    const g = await createObject(t, 'geofences', {
      name: 'Anchor',
      area: 'CIRCLE (1 1, 100)',
      attributes: { isAnchor: true },
    });
    await link(t, { userId: noAnchor.id, geofenceId: g.id });
    const res = await api(t.app, noAnchor.cookie, 'PUT', `/api/geofences/${g.id}`, {
      ...g,
      attributes: {},
    });
    expect(res.statusCode, res.body).toBe(403);
    const stored = (await first(t.ctx.store.sql, 'geofences', { id: g.id }, { columns: ['attributes'] })) as {
      attributes: string;
    };
    expect(JSON.parse(stored.attributes)).toMatchObject({ isAnchor: true });
  });

  it('a form-encoded body on a JSON route is refused with 415 and creates nothing', async () => {
    const before = await count(t, 'devices');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: { cookie: t.admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name: 'Form car', uniqueId: 'form-car-1' }).toString(),
    });
    expect(res.statusCode, res.body).toBe(415);
    expect(await count(t, 'devices')).toBe(before);
  });

  it('a text/plain body on a JSON route is refused with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/commands/send',
      headers: { cookie: t.admin, 'content-type': 'text/plain' },
      payload: JSON.stringify({ deviceId: device.id, type: 'positionSingle' }),
    });
    expect(res.statusCode, res.body).toBe(415);
  });

  it('an empty body with a form content type is no body: the route answers as without one, not 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/commands/send`,
      headers: { cookie: t.admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(400);
  });

  it("Traccar's form routes still take forms (POST /api/session)", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'admin', password: 'admin' }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('OsmAnd on the web port refuses a body over the OsmAnd port limit with 413', async () => {
    const big = `id=${device.uniqueId}&lat=1&lon=1&pad=${'x'.repeat(OSMAND_MAX_BODY)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: big,
    });
    expect(res.statusCode).toBe(413);
    // and a normal report still goes through
    const ok = await t.app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${device.uniqueId}&lat=1&lon=1`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a JSON body over the limit is refused with 413', async () => {
    const res = await api(t.app, t.admin, 'POST', '/api/devices', {
      name: 'Huge',
      uniqueId: 'huge-1',
      attributes: { blob: 'x'.repeat(9 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
  });
});
