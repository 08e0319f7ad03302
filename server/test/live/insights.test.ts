// Fleet insights on the server (issue #14): hand-worked tracks go through the live pipeline; GET /{ns}/dashboard and
// GET /{ns}/scores answer the figures worked out below (metres, ms, knots), in the caller's time zone, only for the
// caller's devices, with the reports' rules (disableReports, validation) and the scores' Excel sheet.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, XLSX_ACCEPT, type DashboardAnswer, type ScoresAnswer } from '@rastro/domain';
import { writeHeldActivity } from '../../src/db/repos/ingestPooled.ts';
import { getLive } from '../../src/live/ingest.ts';
import { rebuildActivity } from '../../src/live/activity.ts';
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
import { remove, select } from '../support/testSql.ts';

let t: TestApp;
let user: CreatedUser;
let a: { id: number; uniqueId: string };
let b: { id: number; uniqueId: string };
let silent: { id: number; uniqueId: string };
let other: { id: number; uniqueId: string };

const at = (iso: string) => new Date(iso);
const METRES_PER_DEGREE = 111_195;
// The caller's days are São Paulo's (UTC−3): 2026-11-19 00:00 local = 03:00 UTC.
const FROM = '2026-11-19T03:00:00.000Z';
const TO = '2026-11-21T02:59:59.999Z';
const span = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;

beforeAll(async () => {
  t = await makeTestApp();
  // 10 L/100 km for the fuel estimate; braking weighs 1 point per harsh braking per 100 km instead of 3
  const server = expectStatus<Record<string, unknown>>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
  const attributes = { ...(server.attributes as object), litersx100km: 10, 'rastro.score.braking': 1 };
  expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);
  await createObject(t, 'drivers', { name: 'Ana Souza', uniqueId: 'D1' });

  // A: limit 50 kn, driver D1. Idle 2 min, then 302 s of driving over 4,000 m with one harsh braking (30 → 10 kn
  // in 2 s) and 2 min at 60 kn (10 kn over), then parked with the ignition off for 13 min (a trip that ended).
  a = await createDevice(t, { attributes: { speedLimit: 50, driverUniqueId: 'D1' } });
  const trackA: Array<[string, number, number, boolean]> = [
    ['2026-11-20T10:00:00Z', 0, 0, true],
    ['2026-11-20T10:02:00Z', 0, 0, true],
    ['2026-11-20T10:03:00Z', 30, 500, true],
    ['2026-11-20T10:03:02Z', 10, 20, true],
    ['2026-11-20T10:05:02Z', 60, 3000, true],
    ['2026-11-20T10:07:02Z', 0, 480, false],
    ['2026-11-20T10:20:02Z', 0, 0, false],
  ];
  let northward = 0; // metres travelled, so the trip detection (real coordinates) sees the same track
  for (const [time, speed, distance, ignition] of trackA) {
    northward += distance;
    await ingestPosition(t, {
      uniqueId: a.uniqueId,
      fixTime: at(time),
      latitude: -23.5 + northward / METRES_PER_DEGREE,
      longitude: -46.6,
      speed,
      attributes: { distance, ignition },
    });
  }
  // B: no driver, no limit. 5 min at 20 kn at 22:00 local (night) and 5 min at 09:00 local, 3,000 m each.
  b = await createDevice(t);
  const trackB: Array<[string, number]> = [
    ['2026-11-20T01:00:00Z', 0],
    ['2026-11-20T01:05:00Z', 3000],
    ['2026-11-20T12:00:00Z', 0],
    ['2026-11-20T12:05:00Z', 3000],
  ];
  for (const [time, distance] of trackB)
    await ingestPosition(t, {
      uniqueId: b.uniqueId,
      fixTime: at(time),
      speed: 20,
      attributes: { distance, motion: true },
    });
  silent = await createDevice(t);
  other = await createDevice(t);
  await ingestPosition(t, {
    uniqueId: other.uniqueId,
    fixTime: at('2026-11-20T12:00:00Z'),
    speed: 20,
    attributes: { distance: 99_000, motion: true },
  });
  await getLive(t.ctx).settle();

  user = await createUser(t, { attributes: { timezone: 'America/Sao_Paulo' } });
  for (const d of [a, b, silent]) await link(t, { userId: user.id, deviceId: d.id });
}, 60_000);
afterAll(async () => t.close());

const dashboard = async (query = span, cookie = user.cookie) =>
  expectStatus<DashboardAnswer>(await api(t.app, cookie, 'GET', `/rastro/dashboard?${query}`), 200);

describe('GET /{ns}/dashboard', () => {
  it('sums the period over the caller’s own devices, per local day and per vehicle', async () => {
    const d = await dashboard();
    expect(d.timeZone).toBe('America/Sao_Paulo');
    expect(d.deviceCount).toBe(3);
    // A 4,000 m + B 6,000 m; the other user's 99 km are not there
    expect(d.totals.distance).toBe(10_000);
    // A: 60 + 2 + 120 + 120 s; B: 2 × 300 s
    expect(d.totals.drivingMs).toBe(302_000 + 600_000);
    expect(d.totals.idleMs).toBe(120_000);
    expect(d.totals.overspeedEvents).toBe(1);
    // 10 km at 10 L/100 km
    expect(d.totals.fuel).toBe(1);
    // B's night drive is 19 Nov local, everything else 20 Nov
    expect(d.days).toEqual([
      { day: '2026-11-19', distance: 3000 },
      { day: '2026-11-20', distance: 7000 },
    ]);
    const byId = new Map(d.devices.map((x) => [x.deviceId, x]));
    expect(byId.get(a.id)).toMatchObject({ distance: 4000, drivingMs: 302_000, idleMs: 120_000 });
    expect(byId.get(a.id)!.utilisation).toBeCloseTo(302_000 / (Date.parse(TO) - Date.parse(FROM)), 9);
    expect(byId.get(silent.id)).toMatchObject({ distance: 0, drivingMs: 0, utilisation: 0 });
    expect(d.topIdle).toEqual([a.id]);
    expect(d.status).toEqual({ online: 2, offline: 0, never: 1 });
    // the period before (two days) had nothing
    expect(d.previous).toMatchObject({ distance: 0, drivingMs: 0, idleMs: 0, stops: 0, overspeedEvents: 0 });
    expect(Date.parse(d.previousTo)).toBe(Date.parse(FROM) - 1);
  });

  it('stops are the trips that ended, as the events report lists them', async () => {
    const d = await dashboard();
    const q = `deviceId=${a.id}&deviceId=${b.id}&type=deviceStopped&${span}`;
    const events = expectStatus<unknown[]>(
      await api(t.app, user.cookie, 'GET', `/api/reports/events?${q}`),
      200,
    );
    expect(d.totals.stops).toBe(events.length);
    expect(d.totals.stops).toBeGreaterThan(0);
  });

  it('the period after compares against this one', async () => {
    const next = `from=${encodeURIComponent('2026-11-21T03:00:00.000Z')}&to=${encodeURIComponent(
      '2026-11-23T02:59:59.999Z',
    )}`;
    const d = await dashboard(next);
    expect(d.totals.distance).toBe(0);
    expect(d.previous.distance).toBe(10_000);
    expect(d.previous.drivingMs).toBe(902_000);
  });

  it('filters by device; a device of someone else is refused', async () => {
    expect((await dashboard(`deviceId=${b.id}&${span}`)).totals.distance).toBe(6000);
    const res = await api(t.app, user.cookie, 'GET', `/rastro/dashboard?deviceId=${other.id}&${span}`);
    expect(res.statusCode).toBe(400);
  });

  it('filters by group', async () => {
    const g = await createObject(t, 'groups', { name: 'Trucks' });
    const dev = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', `/api/devices?id=${a.id}`),
      200,
    );
    const device = (dev as unknown as Array<Record<string, unknown>>)[0];
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${a.id}`, { ...device, groupId: g.id }), 200);
    await link(t, { userId: user.id, groupId: g.id });
    expect((await dashboard(`groupId=${g.id}&${span}`)).totals.distance).toBe(4000);
  });

  it('bad periods are refused in the caller’s language, never a 500', async () => {
    const reversed = `from=${encodeURIComponent(TO)}&to=${encodeURIComponent(FROM)}`;
    expect((await api(t.app, user.cookie, 'GET', `/rastro/dashboard?${reversed}`)).statusCode).toBe(400);
    expect((await api(t.app, user.cookie, 'GET', '/rastro/dashboard?from=yesterday&to=now')).statusCode).toBe(
      400,
    );
    const long = `from=${encodeURIComponent('2025-01-01T00:00:00Z')}&to=${encodeURIComponent(TO)}`;
    const res = await t.app.inject({
      method: 'GET',
      url: `/rastro/dashboard?${long}`,
      headers: { cookie: user.cookie, 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(formatMessage('validation.insightsPeriod', 'es', { days: 366 }));
  });

  it('disableReports and no session are refused', async () => {
    const blocked = await createUser(t, { disableReports: true });
    expect((await api(t.app, blocked.cookie, 'GET', `/rastro/dashboard?${span}`)).statusCode).toBe(400);
    expect((await api(t.app, blocked.cookie, 'GET', `/rastro/scores?${span}`)).statusCode).toBe(400);
    expect((await api(t.app, null, 'GET', `/rastro/dashboard?${span}`)).statusCode).toBe(401);
  });
});

describe('GET /{ns}/scores', () => {
  const scores = async (by: string, cookie = user.cookie) =>
    expectStatus<ScoresAnswer>(await api(t.app, cookie, 'GET', `/rastro/scores?by=${by}&${span}`), 200);

  it('a driver’s score, worked out from A’s track with the braking weight set to 1', async () => {
    const s = await scores('driver');
    expect(s.weights.braking).toBe(1);
    expect(s.rows).toHaveLength(1);
    const [d1] = s.rows;
    expect(d1).toMatchObject({ key: 'D1', name: 'Ana Souza', distance: 4000, drivingMs: 302_000 });
    const b1 = d1.breakdown;
    // 120 of 302 s over the limit: 39.7 %, × 1
    expect(b1.overspeed).toEqual({ value: 39.7, penalty: 39.7 });
    // 10 kn over on average = 18.52 km/h, × 0.5
    expect(b1.excess).toEqual({ value: 18.5, penalty: 9.3 });
    // one braking in 4 km = 25 per 100 km, × 1
    expect(b1.braking).toEqual({ value: 25, penalty: 25 });
    expect(b1.acceleration.value).toBe(0);
    // 120 s idle of 422 s with the engine on: 28.4 %, × 0.3
    expect(b1.idle).toEqual({ value: 28.4, penalty: 8.5 });
    expect(b1.night.value).toBe(0);
    // 100 − (39.7 + 9.3 + 25 + 8.5) = 17.5, rounded to 18
    expect(b1.score).toBe(18);
  });

  it('vehicles: B drove half at night (22:00 local), 100 − 50 % × 0.2 = 90; best first', async () => {
    const s = await scores('device');
    expect(s.rows.map((r) => r.key)).toEqual([String(b.id), String(a.id)]);
    expect(s.rows[0].breakdown.night).toEqual({ value: 50, penalty: 10 });
    expect(s.rows[0].breakdown.score).toBe(90);
    expect(s.rows[1].breakdown.score).toBe(18);
  });

  it('Excel: the ranking with its columns, by Accept header and at /xlsx', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/rastro/scores?by=device&${span}`,
      headers: { cookie: user.cookie, accept: XLSX_ACCEPT, 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(XLSX_ACCEPT);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Vehicle scores');
    expect(ws.getRow(1).getCell(3).value).toBe('Score');
    expect(ws.getRow(2).getCell(3).value).toBe(90);
    expect(ws.getRow(3).getCell(3).value).toBe(18);
    const path = await api(t.app, user.cookie, 'GET', `/rastro/scores/xlsx?by=driver&${span}`);
    expect(path.statusCode).toBe(200);
    expect(path.headers['content-disposition']).toContain('scores-driver.xlsx');
  });

  it('harsh acceleration and cornering derived from the positions, and a device alarm replacing them', async () => {
    // C (driver D2, 09:00 local): 10 → 25 kn in 2 s (3.86 m/s²), then a 40° turn in 2 s at 25 kn (lateral
    // 12.86 m/s × 0.349 rad/s = 4.49 m/s²), then a minute more: 2,000 m in 64 s of driving
    const c = await createDevice(t, { attributes: { driverUniqueId: 'D2' } });
    const track: Array<[string, number, number, number]> = [
      ['2026-11-20T12:00:00Z', 10, 0, 0],
      ['2026-11-20T12:00:02Z', 25, 0, 20],
      ['2026-11-20T12:00:04Z', 25, 40, 26],
      ['2026-11-20T12:01:04Z', 25, 40, 1954],
    ];
    for (const [time, speed, course, distance] of track)
      await ingestPosition(t, {
        uniqueId: c.uniqueId,
        fixTime: at(time),
        speed,
        course,
        attributes: { distance, motion: true },
      });
    // E (driver D3): the same calm minute twice, its tracker reporting one hard cornering
    const e = await createDevice(t, { attributes: { driverUniqueId: 'D3' } });
    const calm: Array<[string, number, string]> = [
      ['2026-11-20T12:00:00Z', 0, ''],
      ['2026-11-20T12:01:00Z', 1000, 'hardCornering'],
      ['2026-11-20T12:02:00Z', 1000, 'hardCornering'],
    ];
    for (const [time, distance, alarm] of calm)
      await ingestPosition(t, {
        uniqueId: e.uniqueId,
        fixTime: at(time),
        speed: 30,
        attributes: { distance, motion: true, ...(alarm ? { alarm } : {}) },
      });
    await getLive(t.ctx).settle();
    const q = `by=driver&deviceId=${c.id}&deviceId=${e.id}&${span}`;
    const s = expectStatus<ScoresAnswer>(await api(t.app, t.admin, 'GET', `/rastro/scores?${q}`), 200);
    const byKey = new Map(s.rows.map((r) => [r.key, r]));
    const d2 = byKey.get('D2')!;
    expect(d2).toMatchObject({ distance: 2000, drivingMs: 64_000 });
    // one of each in 2 km = 50 per 100 km: × 2 = 100, capped at 40 each
    expect(d2.breakdown.acceleration).toEqual({ value: 50, penalty: 40 });
    expect(d2.breakdown.cornering).toEqual({ value: 50, penalty: 40 });
    expect(d2.breakdown.braking.value).toBe(0);
    expect(d2.breakdown.fromAlarms).toBe(false);
    expect(d2.breakdown.score).toBe(20);
    // one alarm (not counted again while it persists) in 2 km = 50 per 100 km × 2 → 40 points
    const d3 = byKey.get('D3')!;
    expect(d3.breakdown.fromAlarms).toBe(true);
    expect(d3.breakdown.cornering).toEqual({ value: 50, penalty: 40 });
    expect(d3.breakdown.score).toBe(60);
    expect(s.rows.map((r) => r.key)).toEqual(['D3', 'D2']);
  });

  it('an unknown ranking subject is a 400', async () => {
    expect((await api(t.app, user.cookie, 'GET', `/rastro/scores?by=planet&${span}`)).statusCode).toBe(400);
  });
});

describe('hours of activity', () => {
  it('rebuilt from the stored positions, they equal what ingestion filed', async () => {
    const db = t.ctx.store.sql;
    const read = async () =>
      (await select(db, 'activity', {}, { orderBy: ['deviceId', 'hour', 'driver'] })).map((r) =>
        JSON.stringify(r),
      );
    await writeHeldActivity(db); // PostgreSQL: the hours this process holds added (db/repos/ingestPooled.ts)
    const live = await read();
    await remove(db, 'activity');
    const limits = new Map([[a.id, 50]]);
    await rebuildActivity(db, (id) => limits.get(id) ?? 0);
    expect(await read()).toEqual(live);
  });
});
