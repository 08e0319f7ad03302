// The reports', route's, assistant's and catalogue's reads on PostgreSQL go through the read pool (issue #30, session
// 35, H30z): (1) the converted reads answer (PostgreSQL's store has no synchronous statement since session 38: a
// synchronous path would throw); (2) a route page and a catalogue object waiting on a locked table (another
// connection holds it ACCESS EXCLUSIVE in an open transaction) do not hold the server: /api/health answers first,
// then the request that waited. Before session 35, these reads went through a synchronous worker that blocked the
// main thread until PostgreSQL answered.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allDriverNames, findSavedCommandAsync } from '../../src/db/repos/catalog.ts';
import { devicesWithQueuedCommands } from '../../src/db/repos/ingest.ts';
import { addLink } from '../../src/db/repos/links.ts';
import { findObjectAsync } from '../../src/db/repos/objects.ts';
import {
  findPositionAsync,
  firstPositionTimesByCode,
  positionValueAtEdge,
  topSpeedsOver,
} from '../../src/db/repos/positions.ts';
import { jsonField } from '../../src/db/sql.ts';
import { getLive } from '../../src/live/ingest.ts';
import { ReportData } from '../../src/live/reports/data.ts';
import { RouteJsonReader } from '../../src/live/reports/routeJson.ts';
import { reportLinks } from '../../src/live/reports/scheduledLinks.ts';
import { getRowAsync } from '../../src/traccar/crud.ts';
import { api, createDevice, createObject, expectStatus, type TestApp } from '../helpers/index.ts';
import { ingestPosition } from '../helpers/live.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
let device: { id: number; uniqueId: string };
const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const FROM = new Date(T0 - 60_000).toISOString();
const TO = new Date(T0 + 60 * 60_000).toISOString();
const positionIds: number[] = [];

beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
  device = await createDevice(t, { name: 'Pool route' });
  for (let i = 0; i < 5; i++) {
    const p = await ingestPosition(t, {
      uniqueId: device.uniqueId,
      fixTime: new Date(T0 + i * 60_000),
      latitude: 10 + i,
      longitude: 20 + i,
      speed: 10 * i,
      attributes: { totalDistance: 1000 * i, driverUniqueId: 'D-1' },
    });
    positionIds.push(p.id);
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

describe("the reports', route's and catalogue's reads on PostgreSQL", () => {
  it('read on the pool: no statement through the synchronous handle', async () => {
    const db = t.ctx.store.sql;
    const geofence = await createObject(t, 'geofences', { name: 'Pool fence', area: 'CIRCLE (1 1, 100)' });
    const command = await createObject(t, 'commands', {
      deviceId: 0,
      type: 'engineStop',
      description: 'Pool stop',
      textChannel: false,
      attributes: {},
    });
    const driver = await createObject(t, 'drivers', { name: 'Ana', uniqueId: 'D-1' });
    const report = await createObject(t, 'reports', { type: 'trips', description: 'Pool', calendarId: 0 });
    await addLink(db, {
      ownerType: 'device',
      ownerId: device.id,
      propertyType: 'report',
      propertyId: report.id,
    });
    const reader = new RouteJsonReader(db);
    const data = new ReportData(t.ctx);
    const cursor = await reader.cursor(device.id, positionIds[1]);
    expect(cursor).toMatchObject({ id: positionIds[1] });
    const page = await reader.texts(device.id, FROM, TO, 10, cursor);
    expect((JSON.parse(`[${page.join(',')}]`) as Array<{ id: number }>).map((p) => p.id)).toEqual(
      positionIds.slice(2),
    );
    expect(await reader.rows(device.id, FROM, TO, 2, null)).toHaveLength(2);
    expect(await reader.extent(device.id, FROM, TO)).toEqual([20, 10, 24, 14]);
    expect(await data.routeJson(device.id, { from: Date.parse(FROM), to: Date.parse(TO) })).toHaveLength(5);
    expect((await data.drivers()).get('D-1')).toBe('Ana');
    expect(await allDriverNames(db)).toContainEqual({ uniqueId: 'D-1', name: driver.name });
    expect(await reportLinks(db, report.id)).toMatchObject({ deviceIds: [device.id], groupIds: [] }); // and its creator
    expect(await devicesWithQueuedCommands(db)).toEqual([]);
    expect((await findSavedCommandAsync(db, command.id))?.description).toBe('Pool stop');
    expect((await findPositionAsync(db, positionIds[0]))?.deviceId).toBe(device.id);
    const total = jsonField(db.dialect, 'attributes', 'totalDistance', true);
    // the odometer as the server counts it along the route: more at the period's end than at its start
    const first = await positionValueAtEdge(db, total, device.id, FROM, TO, 'asc');
    const last = await positionValueAtEdge(db, total, device.id, FROM, TO, 'desc');
    expect(Number(last?.t)).toBeGreaterThan(Number(first?.t));
    const code = jsonField(db.dialect, 'attributes', 'driverUniqueId');
    expect((await firstPositionTimesByCode(db, code, device.id, FROM, TO)).map((r) => r.code)).toEqual([
      'D-1',
    ]);
    expect((await topSpeedsOver(db, FROM, TO, 25)).map((r) => r.deviceId)).toEqual([device.id]);
    expect((await findObjectAsync(db, 'geofences', geofence.id))?.name).toBe('Pool fence');
    expect((await getRowAsync(t.ctx, 'geofences', geofence.id))?.name).toBe('Pool fence');
  });

  /** `path` asked while another connection holds `table` ACCESS EXCLUSIVE: /api/health answers first. */
  async function healthFirst(table: string, path: string): Promise<ReturnType<typeof expectStatus>> {
    await getLive(t.ctx).cache.freshAsync(); // nothing of the request reloads the live cache meanwhile
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      const order: string[] = [];
      const read = api(t.app, t.admin, 'GET', path).then((r) => {
        order.push(path);
        return r;
      });
      await untilLockWaited(watcher, 'relation');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      const answered = await read;
      expect(order).toEqual(['health', path]);
      return expectStatus(answered, 200);
    } finally {
      await end();
    }
  }

  it('a route page waiting on the locked positions lets /api/health answer first, then is answered', async () => {
    const period = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;
    const ns = t.ctx.config.ns;
    const page = (await healthFirst(
      'positions',
      `/${ns}/route?deviceId=${device.id}&${period}&limit=2&after=${positionIds[0]}`,
    )) as Array<{ id: number }>;
    expect(page.map((p) => p.id)).toEqual(positionIds.slice(1, 3));
    const route = (await healthFirst(
      'positions',
      `/api/reports/route?deviceId=${device.id}&${period}`,
    )) as Array<{ id: number }>;
    expect(route.map((p) => p.id)).toEqual(positionIds);
  });

  it('a catalogue object and list waiting on the locked geofences let /api/health answer first', async () => {
    const geofence = await createObject(t, 'geofences', { name: 'Locked fence', area: 'CIRCLE (2 2, 100)' });
    const one = (await healthFirst('geofences', `/api/geofences/${geofence.id}`)) as { name: string };
    expect(one.name).toBe('Locked fence');
    const list = (await healthFirst('geofences', '/api/geofences')) as Array<{ id: number }>;
    expect(list.map((g) => g.id)).toContain(geofence.id);
  });
});
