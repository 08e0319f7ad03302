import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, login, type TestApp } from '../helpers/app.ts';
import { getLive } from '../../src/live/ingest.ts';
import {
  startFleet,
  DEMO_PASSWORD,
  DEMO_USERS,
  BACKFILL_HOURS,
  sliceCount,
  type Fleet,
} from '../../src/live/simulator/index.ts';
import { catalogEntry, uniqueIdOf } from '../../src/live/simulator/catalog.ts';
import { Vehicle } from '../../src/live/simulator/vehicle.ts';
import { route, toLatLon } from '../../src/live/simulator/city.ts';
import { haversine, parseArea } from '@rastro/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { all, count, first, one, select } from '../support/testSql.ts';

const COUNT = 12;
let t: TestApp;
let fleet: Fleet;

beforeAll(async () => {
  t = await makeTestApp({ simDevices: COUNT, simIntervalMs: 3_600_000 });
  fleet = (await startFleet(t.ctx))!;
  await fleet.ready;
  await getLive(t.ctx).settle();
}, 120_000);

afterAll(async () => {
  await t.close();
});

const sql = () => t.ctx.store.sql;
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('demo seed', () => {
  it('creates deterministic devices rastro-0001 … with varied categories, plates and tracker data', async () => {
    const rows = (await select(
      sql(),
      'devices',
      {},
      { columns: ['uniqueId', 'category', 'name', 'attributes'], orderBy: ['id'] },
    )) as Array<{
      uniqueId: string;
      category: string;
      name: string;
      attributes: string;
    }>;
    expect(rows.map((r) => r.uniqueId)).toEqual(Array.from({ length: COUNT }, (_, i) => uniqueIdOf(i + 1)));
    expect(new Set(rows.map((r) => r.category))).toEqual(
      new Set(['car', 'truck', 'motorcycle', 'van', 'pickup', 'bus']),
    );
    const a = JSON.parse(rows[0].attributes) as Record<string, unknown>;
    expect(a.placa).toMatch(/^[A-Z]{3}\d[A-Z]\d{2}$/);
    expect(a['rastro.color']).toMatch(/^#[0-9a-f]{6}$/);
    expect(a).toHaveProperty('device.gpsBrand');
    expect(a).toHaveProperty('device.technology');
    expect(a).toHaveProperty('device.state');
    expect(rows[0].name).toContain(a.placa as string);
    // the same seed gives the same catalogue
    expect(catalogEntry(1, 42, 'rastro')).toEqual(catalogEntry(1, 42, 'rastro'));
    expect(catalogEntry(1, 42, 'rastro').plate).not.toBe(catalogEntry(1, 7, 'rastro').plate);
  });

  it('users of every role log in with demo123 and see their part of the fleet', async () => {
    const all = (await get('/api/devices', t.admin)).json() as unknown[];
    expect(all).toHaveLength(COUNT);
    const manager = await login(t.app, DEMO_USERS.manager, DEMO_PASSWORD);
    const seen = (await get('/api/devices', manager)).json() as Array<{ category: string }>;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(COUNT);
    expect(seen.every((d) => ['car', 'motorcycle', 'pickup', 'van'].includes(d.category))).toBe(true);
    const managed = (await get('/api/users', manager)).json() as Array<{ email: string }>;
    expect(managed.map((u) => u.email).sort()).toEqual([DEMO_USERS.sub1, DEMO_USERS.sub2]);
    const me = (await get('/api/session', manager)).json() as { userLimit: number };
    expect(me.userLimit).toBe(10);
    const ro = (await get('/api/session', await login(t.app, DEMO_USERS.readonly, DEMO_PASSWORD))).json() as {
      readonly: boolean;
    };
    expect(ro.readonly).toBe(true);
    const qr = (await get('/api/session', await login(t.app, DEMO_USERS.driver, DEMO_PASSWORD))).json() as {
      attributes: Record<string, unknown>;
    };
    // The QR driver stands for the first demo driver, may take the first two vehicles, check-in is on.
    const ana = (await first(t.ctx.store.sql, 'drivers', { uniqueId: 'MOT-001' }, { columns: ['id'] })) as {
      id: number;
    };
    expect(qr.attributes['rastro.isQrDriverId']).toBe(ana.id);
    const qrCookie = await login(t.app, DEMO_USERS.driver, DEMO_PASSWORD);
    const state = (await get('/rastro/qr-driver', qrCookie)).json() as {
      enabled: boolean;
      driver: { passwordRequired: boolean };
      devices: Array<{ qrEnabled: boolean }>;
    };
    expect(state.enabled).toBe(true);
    expect(state.driver.passwordRequired).toBe(true);
    expect(state.devices.filter((d) => d.qrEnabled)).toHaveLength(2);
    expect(
      ((await get('/api/devices', await login(t.app, DEMO_USERS.sub1, DEMO_PASSWORD))).json() as []).length,
    ).toBe(3);
  });

  it('geofences (circle, polygon, line), notifications with colour and sound, drivers, nested groups, saved commands', async () => {
    const areas = (
      (await select(sql(), 'geofences', {}, { columns: ['area'] })) as Array<{ area: string }>
    ).map((g) => parseArea(g.area)?.type);
    expect(areas.sort()).toEqual(['circle', 'linestring', 'polygon']);
    const types = (await select(
      sql(),
      'notifications',
      {},
      { columns: ['type', 'notificators', 'attributes'] },
    )) as Array<{
      type: string;
      notificators: string;
      attributes: string;
    }>;
    expect(types.map((n) => n.type).sort()).toEqual(
      ['alarm', 'deviceOverspeed', 'geofenceEnter', 'geofenceExit', 'ignitionOff', 'ignitionOn'].sort(),
    );
    for (const n of types) {
      expect(n.notificators).toContain('web');
      expect(JSON.parse(n.attributes)).toHaveProperty('rastro.sound');
    }
    expect(await count(sql(), 'drivers')).toBeGreaterThan(0);
    const nested = (await one(sql(), (q) =>
      q
        .selectFrom('groups as c')
        .innerJoin('groups as p', 'c.groupId', 'p.id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('p.groupId', '>', 0),
    ))!;
    expect(nested.n).toBeGreaterThan(0);
    expect(await count(sql(), 'commands', { type: 'engineStop' })).toBe(1);
  });
});

describe('history backfill and movement', () => {
  it('the first devices have two days of plausible positions; silent devices never report', async () => {
    const ofDevice = (q: Kysely<Database>, uniqueId: string) =>
      q
        .selectFrom('positions as p')
        .innerJoin('devices as d', 'd.id', 'p.deviceId')
        .where('d.uniqueId', '=', uniqueId);
    const span = (await one(sql(), (q) =>
      ofDevice(q, uniqueIdOf(1)).select((e) => [
        e.fn.min('p.fixTime').as('a'),
        e.fn.max('p.fixTime').as('b'),
        e.fn.countAll<number>().as('n'),
        e.fn.max('p.speed').as('v'),
      ]),
    ))!;
    expect(span.n).toBeGreaterThan(500);
    expect((Date.parse(span.b) - Date.parse(span.a)) / 3600_000).toBeGreaterThan(BACKFILL_HOURS - 1);
    expect(span.v).toBeGreaterThan(0);
    expect(span.v * 1.852).toBeLessThanOrEqual(110.01);
    const silent = (await one(sql(), (q) =>
      ofDevice(q, uniqueIdOf(10)).select((e) => e.fn.countAll<number>().as('n')),
    ))!;
    expect(silent.n).toBe(0);
  });

  it('the live pipeline stored motion and ignition events for the history, so reports have data', async () => {
    const id = (
      (await first(sql(), 'devices', { uniqueId: uniqueIdOf(1) }, { columns: ['id'] })) as { id: number }
    ).id;
    const from = new Date(Date.now() - BACKFILL_HOURS * 3600_000).toISOString();
    const to = new Date().toISOString();
    const trips = (
      await get(`/api/reports/trips?deviceId=${id}&from=${from}&to=${to}`, t.admin)
    ).json() as Array<{
      distance: number;
      duration: number;
    }>;
    expect(trips.length).toBeGreaterThan(2);
    for (const trip of trips) expect(trip.duration).toBeGreaterThan(0);
    const kinds = (
      await all(sql(), (q) => q.selectFrom('events').select('type').distinct().where('deviceId', '=', id))
    ).map((e) => e.type);
    expect(kinds).toEqual(
      expect.arrayContaining(['deviceMoving', 'deviceStopped', 'ignitionOn', 'ignitionOff']),
    );
  });

  it('drivers brake, accelerate and corner hard now and then, so the scores have data', async () => {
    const alarms = (await select(sql(), 'events', { type: 'alarm' }, { columns: ['attributes'] })) as Array<{
      attributes: string;
    }>;
    const harsh = alarms.filter((a) =>
      ['hardBraking', 'hardAcceleration', 'hardCornering'].includes(
        (JSON.parse(a.attributes) as { alarm?: string }).alarm ?? '',
      ),
    );
    expect(harsh.length).toBeGreaterThan(0);
    const from = new Date(Date.now() - BACKFILL_HOURS * 3600_000).toISOString();
    const to = new Date().toISOString();
    const scores = (await get(`/rastro/scores?by=driver&from=${from}&to=${to}`, t.admin)).json() as {
      rows: Array<{ breakdown: { score: number | null; fromAlarms: boolean } }>;
    };
    expect(scores.rows.length).toBeGreaterThan(0);
    expect(scores.rows.some((r) => r.breakdown.fromAlarms)).toBe(true);
    expect(scores.rows.some((r) => r.breakdown.score !== null && r.breakdown.score < 100)).toBe(true);
  });

  it('a tick moves every reporting vehicle through the pipeline', async () => {
    const before = await count(sql(), 'positions');
    // past the parked reporting period (120 s), every vehicle is due
    await fleet.tick(Date.now() + 130_000);
    await getLive(t.ctx).settle();
    const after = await count(sql(), 'positions');
    // 12 devices: rastro-0010 never reports; every other one reports
    expect(after - before).toBe(COUNT - 1);
  });

  it('engineStop blocks the vehicle (blocked=true, speed 0) and engineResume releases it', async () => {
    const live = getLive(t.ctx);
    const id = (
      (await first(sql(), 'devices', { uniqueId: uniqueIdOf(2) }, { columns: ['id'] })) as { id: number }
    ).id;
    expect(await live.canSendLive(id)).toBe(true);
    await live.sendLive(id, {
      id: 0,
      deviceId: id,
      type: 'engineStop',
      textChannel: false,
      description: null,
      attributes: {},
    });
    await live.settle();
    expect((await live.latestPositionAsync(id))?.attributes.blocked).toBe(true);
    for (let i = 0; i < 3; i++) await fleet.tick(Date.now() + 130_000 + 10_000 * (i + 1));
    await live.settle();
    expect((await live.latestPositionAsync(id))?.speed).toBe(0);
    expect((await live.latestPositionAsync(id))?.attributes.ignition).toBe(false);
    await live.sendLive(id, {
      id: 0,
      deviceId: id,
      type: 'engineResume',
      textChannel: false,
      description: null,
      attributes: {},
    });
    await live.settle();
    expect((await live.latestPositionAsync(id))?.attributes.blocked).toBe(false);
    await live.resultsSettled(); // the trackers' answers are stored in their own transactions (issue #30)
    const results = (await select(
      sql(),
      'events',
      { deviceId: id, type: 'commandResult' },
      { columns: ['attributes'] },
    )) as Array<{
      attributes: string;
    }>;
    expect(results.map((r) => JSON.parse(r.attributes).result)).toEqual(['Engine stopped', 'Engine resumed']);
  });
});

describe('tick slices (docs/demo-fleet.md Scale)', () => {
  it('a large fleet reports in slices of at most 100 vehicles, never closer than 50 ms apart', () => {
    expect(sliceCount(10_000, 10_000)).toBe(100); // 100 vehicles every 100 ms
    expect(sliceCount(10_000, 5000)).toBe(100); // 100 vehicles every 50 ms
    expect(sliceCount(10_000, 1000)).toBe(20); // 500 vehicles every 50 ms: the 50 ms floor wins
    expect(sliceCount(2500, 5000)).toBe(25);
    expect(sliceCount(100, 5000)).toBe(10); // small fleets: 10 slices
    expect(sliceCount(3, 5000)).toBe(3);
    expect(sliceCount(0, 5000)).toBe(1);
    expect(sliceCount(10_000, 20)).toBe(1);
  });
});

describe('vehicle model', () => {
  it('is deterministic for a seed and follows street blocks', () => {
    const run = () => {
      const v = new Vehicle(catalogEntry(3, 42, 'rastro'), 42, ['MOT-001']);
      const out = [];
      for (let s = 0; s < 200; s++) {
        v.step(Date.UTC(2026, 2, 2, 15) + s * 5000, 5);
        out.push(v.report(Date.UTC(2026, 2, 2, 15) + s * 5000));
      }
      return out;
    };
    const a = run();
    expect(run()).toEqual(a);
    // consecutive reports never jump further than a vehicle can drive in 5 s at 110 km/h
    for (let i = 1; i < a.length; i++) {
      expect(haversine(a[i - 1].latitude, a[i - 1].longitude, a[i].latitude, a[i].longitude)).toBeLessThan(
        (110 / 3.6) * 5 + 1,
      );
    }
  });
  it('routes are made of 200 m blocks joined end to end', () => {
    const legs = route({ i: 3, j: -4 }, { i: -5, j: 7 });
    // via the nearest arterial (line 0): 3 blocks to it, 11 along it, 5 to the destination
    expect(legs.length).toBe(3 + 11 + 5);
    for (let i = 1; i < legs.length; i++) expect(legs[i].from).toEqual(legs[i - 1].to);
    const a = toLatLon({ i: 0, j: 0 });
    const b = toLatLon({ i: 1, j: 0 });
    expect(haversine(a.latitude, a.longitude, b.latitude, b.longitude)).toBeCloseTo(200, 0);
  });
});
