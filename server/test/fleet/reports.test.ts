import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { destination } from '@rastro/domain';
import type { AppContext } from '../../src/context.ts';
import { getLive } from '../../src/live/ingest.ts';
import { positionFromRow, type PositionDbRow } from '../../src/live/json.ts';
import { positionJsonText } from '../../src/live/reports/routeJson.ts';
import { addDevice, addGroup, addUser, basic, fleetApp, link } from './app.ts';
import { syntheticDay, T0 } from './track.ts';
import { first, insert, select, update } from '../support/testSql.ts';

const KN = 3600 / 1852;
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString().replace('Z', '+00:00');
const iso = (ms: number) => new Date(ms).toISOString();

let app: FastifyInstance;
let ctx: AppContext;
const admin = basic('admin@x', 'pw');
const user = basic('user@x', 'pw');
const noReports = basic('norep@x', 'pw');
let d1: number;
let d2: number;
let geofenceId: number;

beforeAll(async () => {
  ({ app, ctx } = await fleetApp());
  const adminId = await addUser(ctx, 'admin@x', 'pw', { administrator: 1 });
  const userId = await addUser(ctx, 'user@x', 'pw');
  await addUser(ctx, 'norep@x', 'pw', { disableReports: 1 });
  const parent = await addGroup(ctx, 'Frota');
  const child = await addGroup(ctx, 'Caminhões', parent);
  d1 = await addDevice(ctx, 'r-1', 'Caminhão 7');
  d2 = await addDevice(ctx, 'r-2', 'Van 2', child);
  await link(ctx, 'user', userId, 'device', d1);
  await link(ctx, 'user', adminId, 'device', d1);
  await link(ctx, 'user', adminId, 'device', d2);
  await insert(ctx.store.sql, 'drivers', { name: 'Ana', uniqueId: 'D-1' });
  // a 300 m circle around the 6000 m mark, where the track stops for 20 minutes
  const mark = destination({ latitude: 0, longitude: 0 }, 90, 6000);
  geofenceId = Number(
    await insert(ctx.store.sql, 'geofences', {
      name: 'Pátio',
      area: `CIRCLE (${mark.latitude} ${mark.longitude}, 300)`,
    }),
  );
  await link(ctx, 'device', d1, 'geofence', geofenceId);
  await link(ctx, 'user', adminId, 'geofence', geofenceId);
  const live = getLive(ctx);
  live.invalidate();
  const results = await live.ingestMany(
    syntheticDay().map((p) => ({
      deviceId: d1,
      protocol: 'osmand',
      fixTime: new Date(p.fixTime),
      latitude: p.latitude,
      longitude: p.longitude,
      speed: p.speed,
      attributes: { hours: p.attributes.hours, fuel: p.attributes.fuel, driverUniqueId: 'D-1' },
    })),
  );
  expect(results.every((r) => r.ok)).toBe(true);
  // device 2: one report late on 2 March and one early on 3 March (UTC)
  const r2 = await live.ingestMany(
    ['2026-03-02T23:00:00Z', '2026-03-03T01:00:00Z'].map((t, i) => ({
      deviceId: d2,
      protocol: 'osmand',
      fixTime: new Date(t),
      latitude: -23.5,
      longitude: -46.6 + i * 0.01,
      speed: 0,
      attributes: {},
    })),
  );
  expect(r2.every((r) => r.ok)).toBe(true);
  // device 2: two alarms on 5 March
  const r3 = await live.ingestMany(
    ['sos', 'powerCut'].map((alarm, i) => ({
      deviceId: d2,
      protocol: 'osmand',
      fixTime: new Date(Date.parse('2026-03-05T02:00:00Z') + i * 60_000),
      latitude: -23.5,
      longitude: -46.59,
      speed: 0,
      attributes: { alarm },
    })),
  );
  expect(r3.every((r) => r.ok)).toBe(true);
});

afterAll(async () => {
  await app.close();
});

const get = async (url: string, headers: Record<string, string> = admin) => {
  const res = await app.inject({ method: 'GET', url, headers: { accept: 'application/json', ...headers } });
  return res;
};
const day = `from=${encodeURIComponent(iso(T0))}&to=${encodeURIComponent(iso(T0 + 3600_000))}`;

describe('GET /api/reports/trips and /stops (slow mode)', () => {
  it('two 6000 m trips of 780 s with max 10 m/s and the driver name', async () => {
    const res = await get(`/api/reports/trips?deviceId=${d1}&${day}`);
    expect(res.statusCode).toBe(200);
    const trips = res.json() as Array<Record<string, number | string>>;
    expect(trips.map((t) => [t.startTime, t.endTime, t.duration])).toEqual([
      [at(600), at(1380), 780_000],
      [at(2400), at(3180), 780_000],
    ]);
    for (const t of trips) {
      expect(t.distance as number).toBeCloseTo(6000, 3);
      expect(t.maxSpeed as number).toBeCloseTo(10 * KN, 6);
      expect(t.averageSpeed as number).toBeCloseTo((6000 / 780) * KN, 3);
      expect(t.spentFuel as number).toBeCloseTo(0.6, 6);
      expect(t).toMatchObject({
        deviceId: d1,
        deviceName: 'Caminhão 7',
        driverUniqueId: 'D-1',
        driverName: 'Ana',
      });
    }
  });

  it('stops: parked start, the 1020 s stop with 120 s of engine idle, parked end', async () => {
    const res = await get(`/api/reports/stops?deviceId=${d1}&${day}`);
    const stops = res.json() as Array<Record<string, number | string>>;
    expect(stops.map((s) => [s.startTime, s.endTime, s.duration, s.engineHours])).toEqual([
      [at(0), at(600), 600_000, 0],
      [at(1380), at(2400), 1_020_000, 120_000],
      [at(3180), at(3600), 420_000, 0],
    ]);
    expect(stops[1].latitude).toBeCloseTo(0, 9);
    expect(stops[1].longitude as number).toBeCloseTo(6000 / ((6378137 * Math.PI) / 180), 9);
  });
});

describe('fast mode (period over 86 400 s): stored motion events, maxSpeed 0', () => {
  it('finds the same trips from the events the live pipeline stored', async () => {
    const wide = `from=${encodeURIComponent(iso(T0 - 86_400_000))}&to=${encodeURIComponent(iso(T0 + 86_400_000))}`;
    const trips = (await get(`/api/reports/trips?deviceId=${d1}&${wide}`)).json() as Array<
      Record<string, unknown>
    >;
    expect(trips.map((t) => [t.startTime, t.endTime, t.maxSpeed])).toEqual([
      [at(600), at(1380), 0],
      [at(2400), at(3180), 0],
    ]);
  });
});

describe('GET /api/reports/summary', () => {
  it('12 000 m, 1500 s of engine, average over engine hours, max 10 m/s', async () => {
    const [s] = (await get(`/api/reports/summary?deviceId=${d1}&${day}`)).json() as Array<
      Record<string, number>
    >;
    expect(s.distance).toBeCloseTo(12_000, 3);
    expect(s.engineHours).toBe(1_500_000);
    expect(s.averageSpeed).toBeCloseTo(8 * KN, 3);
    expect(s.maxSpeed).toBeCloseTo(10 * KN, 6);
    expect(s.spentFuel).toBeCloseTo(1.2, 6);
  });

  it('daily=true cuts days in the user/server time zone; devices without positions are omitted', async () => {
    const q = `groupId=${await addGroupRoot()}&from=2026-03-02T00:00:00Z&to=2026-03-04T00:00:00Z&daily=true`;
    const utc = (await get(`/api/reports/summary?${q}`)).json() as Array<Record<string, unknown>>;
    expect(utc.map((s) => [s.deviceId, s.startTime])).toEqual([
      [d2, '2026-03-02T23:00:00.000+00:00'],
      [d2, '2026-03-03T01:00:00.000+00:00'],
    ]);
    await update(ctx.store.sql, 'server', { attributes: '{"timezone":"America/Sao_Paulo"}' }, { id: 1 });
    getLive(ctx).invalidate();
    const sp = (await get(`/api/reports/summary?${q}`)).json() as Array<Record<string, unknown>>;
    expect(sp.map((s) => [s.startTime, s.endTime])).toEqual([
      ['2026-03-02T23:00:00.000+00:00', '2026-03-03T01:00:00.000+00:00'],
    ]);
    await update(ctx.store.sql, 'server', { attributes: '{}' }, { id: 1 });
    getLive(ctx).invalidate();
  });
});

async function addGroupRoot(): Promise<number> {
  const row = (await first(ctx.store.sql, 'groups', { name: 'Frota' }, { columns: ['id'] })) as {
    id: number;
  };
  return row.id;
}

describe('route and events', () => {
  it('route: positions in fixTime order', async () => {
    const route = (await get(`/api/reports/route?deviceId=${d1}&${day}`)).json() as Array<{
      fixTime: string;
    }>;
    expect(route).toHaveLength(61);
    expect(route[0].fixTime).toBe(at(0));
    expect(route[60].fixTime).toBe(at(3600));
  });

  it('route JSON is exactly the Position shape (same as positionFromRow), odd stored values included', async () => {
    const rows = (await select(
      ctx.store.sql,
      'positions',
      { deviceId: d1 },
      { orderBy: ['fixTime', 'id'] },
    )) as PositionDbRow[];
    const route = (await get(`/api/reports/route?deviceId=${d1}&${day}`)).json() as unknown[];
    expect(route).toEqual(rows.map(positionFromRow));
    const odd: PositionDbRow = {
      ...rows[0],
      fixTime: '2026-03-02T10:00:00+02:00',
      address: 'Rua "A", 10',
      network: '{"radioType":"gsm"}',
      geofenceIds: '[3,4]',
      attributes: 'not json',
    };
    expect(JSON.parse(positionJsonText(odd))).toEqual(positionFromRow(odd));
  });

  it('events: the alarm filter keeps only the listed alarms', async () => {
    const q = `deviceId=${d2}&from=2026-03-05T00:00:00Z&to=2026-03-05T03:00:00Z`;
    const all = (await get(`/api/reports/events?${q}&type=alarm`)).json() as Array<{
      attributes: { alarm: string };
    }>;
    expect(all.map((e) => e.attributes.alarm)).toEqual(['sos', 'powerCut']);
    const sos = (await get(`/api/reports/events?${q}&type=alarm&alarm=sos`)).json() as Array<{
      attributes: { alarm: string };
    }>;
    expect(sos.map((e) => e.attributes.alarm)).toEqual(['sos']);
  });

  it('events: type list and allEvents', async () => {
    const stopped = (
      await get(`/api/reports/events?deviceId=${d1}&${day}&type=deviceStopped`)
    ).json() as Array<{
      type: string;
      eventTime: string;
    }>;
    expect(stopped.map((e) => e.eventTime)).toEqual([at(1380), at(3180)]);
    const all = (await get(`/api/reports/events?deviceId=${d1}&${day}&type=allEvents`)).json() as Array<{
      type: string;
    }>;
    expect(all.filter((e) => e.type === 'deviceMoving')).toHaveLength(2);
  });
});

describe('geofences and combined', () => {
  it('geofences: inside from the arrival at 1200 s (6000 m) to the first position out of 300 m at 2460 s (6600 m)', async () => {
    const res = await get(`/api/reports/geofences?deviceId=${d1}&geofenceId=${geofenceId}&${day}`);
    expect(res.json()).toEqual([
      expect.objectContaining({
        deviceId: d1,
        geofenceId,
        startTime: at(1200),
        endTime: at(2460),
        distance: 0,
      }),
    ]);
    // only listed geofences are reported
    expect((await get(`/api/reports/geofences?deviceId=${d1}&${day}`)).json()).toEqual([]);
    // a geofence the caller cannot see
    const denied = await get(`/api/reports/geofences?deviceId=${d1}&geofenceId=${geofenceId}&${day}`, user);
    expect(denied.statusCode).toBe(400);
  });

  it('combined: [lon, lat] route, events with a position except deviceMoving, and their positions', async () => {
    const [item] = (await get(`/api/reports/combined?deviceId=${d1}&${day}`)).json() as Array<{
      deviceId: number;
      route: Array<[number, number]>;
      events: Array<{ type: string; positionId: number }>;
      positions: Array<{ id: number; fixTime: string }>;
    }>;
    expect(item.deviceId).toBe(d1);
    expect(item.route).toHaveLength(61);
    expect(item.route[60][0]).toBeCloseTo(
      destination({ latitude: 0, longitude: 0 }, 90, 12_000).longitude,
      9,
    );
    expect(item.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['deviceStopped', 'geofenceEnter', 'geofenceExit']),
    );
    expect(item.events.some((e) => e.type === 'deviceMoving')).toBe(false);
    expect(new Set(item.positions.map((p) => p.id))).toEqual(new Set(item.events.map((e) => e.positionId)));
  });
});

describe('report rules', () => {
  it('no deviceId and no groupId ⇒ every device the caller sees', async () => {
    const r = (await get(`/api/reports/summary?${day}`, user)).json() as Array<{ deviceId: number }>;
    expect(r.map((s) => s.deviceId)).toEqual([d1]);
  });
  it('a device the caller cannot see ⇒ 400 Device access denied', async () => {
    const res = await get(`/api/reports/trips?deviceId=${d2}&${day}`, user);
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/Device access denied/);
  });
  it('disableReports ⇒ 400 Operation restricted', async () => {
    const res = await get(`/api/reports/route?${day}`, noReports);
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/Operation restricted/);
  });
  it('dates without a zone, bad ids and a missing login are refused with clear 4xx texts', async () => {
    const a = await get(`/api/reports/trips?deviceId=${d1}&from=2026-03-02T10:00:00&to=2026-03-02T11:00:00Z`);
    expect(a.statusCode).toBe(400);
    expect(a.body).toMatch(/from/);
    const b = await get(`/api/reports/trips?deviceId=abc&${day}`);
    expect(b.statusCode).toBe(400);
    const c = await get(`/api/reports/trips?deviceId=${d1}&${day}`, {});
    expect(c.statusCode).toBe(401);
    const d = await get(
      `/api/reports/trips?deviceId=${d1}&from=2026-03-03T00:00:00Z&to=2026-03-02T00:00:00Z`,
    );
    expect(d.statusCode).toBe(400);
  });
});
