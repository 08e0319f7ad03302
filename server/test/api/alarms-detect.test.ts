// Monitoring center detection (issue #32): each rule on hand-made tracks posted through OsmAnd, and the negatives (a
// car driven normally, a car parked with a drifting GPS fix); the alarms reach GET /{ns}/alarms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAnchorGeofence, type Alarm } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  expectStatus,
  ICS,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { alarmDetector } from '../../src/ext/alarms.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const LAT = -23.55;
const LON = -46.63;
/** Degrees of latitude per metre. */
const M = 1 / 111_195;
const T0 = Math.floor(Date.parse('2026-01-10T10:00:00Z') / 1000);

/** One OsmAnd report (GET-style query on POST /), `i` fixes of 30 s after T0, `north` metres from the start. */
async function osmand(
  uniqueId: string,
  i: number,
  north: number,
  params: Record<string, string | number> = {},
) {
  const q = new URLSearchParams({
    id: uniqueId,
    lat: String(LAT + north * M),
    lon: String(LON),
    timestamp: String(T0 + i * 30),
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
  });
  const res = await t.app.inject({ method: 'POST', url: `/?${q.toString()}` });
  expect(res.statusCode).toBe(200);
  await alarmDetector(t.ctx)!.settled(); // the detection runs after the position's answer, on the pool
}

async function track(uniqueId: string, points: Array<[number, Record<string, string | number>?]>) {
  for (const [i, [north, params]] of points.entries()) await osmand(uniqueId, i, north, params);
}

async function alarmsOf(deviceId: number, query = 'all=true'): Promise<Alarm[]> {
  await alarmDetector(t.ctx)!.settled();
  const res = await api(t.app, t.admin, 'GET', `/rastro/alarms?deviceId=${deviceId}&${query}`);
  return expectStatus<Alarm[]>(res, 200);
}

const types = async (deviceId: number) => (await alarmsOf(deviceId)).map((a) => [a.type, a.count]);

describe('tracker alarms', () => {
  it('SOS, power cut, tampering and other values; a repeat folds into the open alarm', async () => {
    const d = await createDevice(t);
    await track(d.uniqueId, [
      [0],
      [0, { alarm: 'sos' }],
      [0],
      [0, { alarm: 'sos' }],
      [0, { alarm: 'powerCut' }],
      [0, { alarm: 'tampering' }],
      [0, { alarm: 'jamming' }],
    ]);
    const list = await alarmsOf(d.id);
    expect(list.map((a) => [a.type, a.severity, a.count, a.detail])).toEqual([
      ['sos', 'critical', 2, 'sos'],
      ['powerCut', 'high', 1, 'powerCut'],
      ['tampering', 'high', 1, 'tampering'],
      ['deviceAlarm', 'medium', 1, 'jamming'],
    ]);
    expect(list[0]).toMatchObject({ state: 'open', deviceId: d.id, deviceName: d.name });
    expect(list[0].latitude).toBeCloseTo(LAT, 5);
    expect(list[0].lastTime > list[0].time).toBe(true);
  });
});

describe('towing', () => {
  it('carried 700 m with the ignition off raises one towing alarm', async () => {
    const d = await createDevice(t);
    const off = { ignition: 'false', speed: 2 };
    await track(d.uniqueId, [
      [0, off],
      [0, off],
      [150, off],
      [350, off],
      [500, off],
      [700, off],
      [900, off],
    ]);
    expect(await types(d.id)).toEqual([['towing', 1]]);
  });

  it('negative: a parked car with a drifting GPS fix (jumps of 500 m and back) raises nothing', async () => {
    const d = await createDevice(t);
    const drift = [0, 20, 520, 10, -30, 480, 510, 5, 40, 700, -15, 10];
    await track(
      d.uniqueId,
      drift.map(
        (m) =>
          [m, { ignition: 'false', speed: m > 300 ? 15 : 0 }] as [number, Record<string, number | string>],
      ),
    );
    expect(await types(d.id)).toEqual([]);
  });

  it('negative: a car driven normally raises nothing', async () => {
    const d = await createDevice(t);
    const points: Array<[number, Record<string, string | number>]> = [[0, { ignition: 'false' }]];
    for (let i = 1; i < 15; i++) points.push([i * 400, { ignition: 'true', speed: 26 }]);
    points.push([6000, { ignition: 'false', speed: 0 }], [6010, { ignition: 'false', speed: 0 }]);
    await track(d.uniqueId, points);
    expect(await types(d.id)).toEqual([]);
  });
});

describe('signal lost while moving', () => {
  it('moving at the last report and silent for 5 minutes: one alarm, once', async () => {
    const d = await createDevice(t);
    const fix = Math.floor(Date.now() / 1000);
    const q = `id=${d.uniqueId}&lat=${LAT}&lon=${LON}&speed=30&timestamp=${fix}`;
    expect((await t.app.inject({ method: 'POST', url: `/?${q}` })).statusCode).toBe(200);
    const detector = alarmDetector(t.ctx)!;
    await detector.checkSignalLost(Date.now() + 4 * 60_000);
    expect(await types(d.id)).toEqual([]);
    await detector.checkSignalLost(Date.now() + 6 * 60_000);
    await detector.checkSignalLost(Date.now() + 7 * 60_000);
    expect(await types(d.id)).toEqual([['signalLost', 1]]);
  });

  it('negative: parked at the last report', async () => {
    const d = await createDevice(t);
    const q = `id=${d.uniqueId}&lat=${LAT}&lon=${LON}&speed=0&timestamp=${Math.floor(Date.now() / 1000)}`;
    expect((await t.app.inject({ method: 'POST', url: `/?${q}` })).statusCode).toBe(200);
    await alarmDetector(t.ctx)!.checkSignalLost(Date.now() + 60 * 60_000);
    expect(await types(d.id)).toEqual([]);
  });
});

describe('parked window, anchor, overspeed, QR driver', () => {
  it('movement inside the parked calendar (08:00–17:00 UTC) raises parkedMovement; outside it nothing', async () => {
    const cal = await createObject(t, 'calendars', { name: 'Parked', data: ICS });
    const attributes = { 'rastro.alarms.parkedCalendarId': cal.id };
    const inside = await createDevice(t, { attributes });
    await track(inside.uniqueId, [
      [0, { ignition: 'false' }],
      [0, { ignition: 'true' }],
      [300, { speed: 20 }],
    ]);
    expect(await types(inside.id)).toEqual([['parkedMovement', 1]]);
    // the same track at 20:00 UTC
    const outside = await createDevice(t, { attributes });
    for (const [i, [north, p]] of (
      [
        [0, { ignition: 'false' }],
        [0, { ignition: 'true' }],
        [300, { speed: 20 }],
      ] as const
    ).entries())
      await osmand(outside.uniqueId, i + 1200, north, p);
    expect(await types(outside.id)).toEqual([]);
  });

  it("leaving an anchored vehicle's anchor raises anchorExit", async () => {
    const d = await createDevice(t);
    const g = await createObject(t, 'geofences', {
      ...buildAnchorGeofence(d, { latitude: LAT, longitude: LON }),
      id: 0,
    });
    expectStatus(
      await api(t.app, t.admin, 'POST', '/api/permissions', { deviceId: d.id, geofenceId: g.id }),
      204,
    );
    await track(d.uniqueId, [
      [0, { ignition: 'false' }],
      [400, { ignition: 'false' }],
    ]);
    for (let i = 0; i < 50 && !(await types(d.id)).length; i++) await new Promise((r) => setTimeout(r, 10));
    const list = await alarmsOf(d.id);
    expect(list.map((a) => [a.type, a.detail])).toEqual([['anchorExit', 'tow']]);
  });

  it('overspeed above the device limit, once per excursion', async () => {
    const d = await createDevice(t, { attributes: { speedLimit: 50 } });
    await track(d.uniqueId, [
      [0, { speed: 30 }],
      [500, { speed: 70 }],
      [1000, { speed: 75 }],
      [1500, { speed: 20 }],
    ]);
    expect(await types(d.id)).toEqual([['overspeed', 1]]);
  });

  it('ignition on without a checked-in driver where QR check-in is used', async () => {
    const server = expectStatus<Record<string, unknown> & { attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    const put = (attributes: Record<string, unknown>) =>
      api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes });
    expectStatus(await put({ ...server.attributes, 'rastro.qrDriverCheckin': true }), 200);
    try {
      const qr = await createDevice(t, { attributes: { 'rastro.qrDriver': true } });
      const plain = await createDevice(t);
      for (const d of [qr, plain])
        await track(d.uniqueId, [
          [0, { ignition: 'false' }],
          [0, { ignition: 'true' }],
        ]);
      expect(await types(qr.id)).toEqual([['noDriver', 1]]);
      expect(await types(plain.id)).toEqual([]);
    } finally {
      expectStatus(await put(server.attributes), 200);
    }
  });

  it('{ns}.alarms.disabledTypes and a device switched off raise nothing', async () => {
    const off = await createDevice(t, { attributes: { 'rastro.alarms.enabled': false } });
    await track(off.uniqueId, [[0], [0, { alarm: 'sos' }]]);
    expect(await types(off.id)).toEqual([]);
  });
});
