// The live pipeline (CONTRACT §7) with hand-computed numbers: distance, engine hours, alarms, geofences,
// overspeed, status, latest position.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, createObject, link, makeTestApp, type TestApp } from '../helpers/index.ts';
import { getLive, type IncomingPosition } from '../../src/live/ingest.ts';
import { first, select } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const T0 = Date.parse('2024-05-01T12:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

function pos(uniqueId: string, s: number, lat: number, lon: number, extra: Partial<IncomingPosition> = {}) {
  return { uniqueId, protocol: 'osmand', fixTime: at(s), latitude: lat, longitude: lon, ...extra };
}

async function send(p: IncomingPosition) {
  const r = await getLive(t.ctx).ingest(p);
  if (!r.ok) throw new Error(r.message);
  return r.position;
}

async function events(
  deviceId: number,
): Promise<Array<{ type: string; geofenceId: number; attributes: string; positionId: number }>> {
  return (await select(
    t.ctx.store.sql,
    'events',
    { deviceId },
    { columns: ['type', 'geofenceId', 'attributes', 'positionId'], orderBy: ['id'] },
  )) as never;
}

describe('distance and totalDistance', () => {
  it('uses haversine with R = 6 378 137 m and accumulates', async () => {
    const d = await createDevice(t);
    const p1 = await send(pos(d.uniqueId, 0, 0, 0));
    expect(p1.attributes.distance).toBe(0);
    expect(p1.attributes.totalDistance).toBe(0);
    // 0.01° of longitude on the equator: 6 378 137 × 0.01 × π / 180 = 1113.1949 m
    const p2 = await send(pos(d.uniqueId, 60, 0, 0.01));
    expect(p2.attributes.distance).toBe(1113.19);
    expect(p2.attributes.totalDistance).toBe(1113.19);
    // 0.01° of latitude along a meridian: the same 1113.1949 m; total 1113.19 + 1113.1949 = 2226.38
    const p3 = await send(pos(d.uniqueId, 120, 0.01, 0.01));
    expect(p3.attributes.distance).toBe(1113.19);
    expect(p3.attributes.totalDistance).toBe(2226.38);
    // a device-sent distance wins
    const p4 = await send(pos(d.uniqueId, 180, 0.01, 0.01, { attributes: { distance: 5 } }));
    expect(p4.attributes.distance).toBe(5);
    expect(p4.attributes.totalDistance).toBe(2231.38);
  });

  it('computes motion from speed > 0.01 kn unless the device sent it', async () => {
    const d = await createDevice(t);
    expect((await send(pos(d.uniqueId, 0, 1, 1, { speed: 0.01 }))).attributes.motion).toBe(false);
    expect((await send(pos(d.uniqueId, 10, 1, 1, { speed: 0.02 }))).attributes.motion).toBe(true);
    expect(
      (await send(pos(d.uniqueId, 20, 1, 1, { speed: 30, attributes: { motion: false } }))).attributes.motion,
    ).toBe(false);
  });
});

describe('engine hours', () => {
  it('adds device-time deltas only while both positions have ignition on', async () => {
    const d = await createDevice(t);
    const ign = (s: number, on: boolean) => send(pos(d.uniqueId, s, 2, 2, { attributes: { ignition: on } }));
    expect((await ign(0, true)).attributes.hours).toBeUndefined();
    expect((await ign(60, true)).attributes.hours).toBe(60_000);
    expect((await ign(120, false)).attributes.hours).toBe(60_000);
    expect((await ign(180, true)).attributes.hours).toBe(60_000);
    expect((await ign(240, true)).attributes.hours).toBe(120_000);
    const types = (await events(d.id)).map((e) => e.type);
    expect(types.filter((x) => x === 'ignitionOn')).toHaveLength(1);
    expect(types.filter((x) => x === 'ignitionOff')).toHaveLength(1);
  });
});

describe('alarms', () => {
  it('creates one event per new alarm value, suppressing repeats of the previous position', async () => {
    const d = await createDevice(t);
    const alarm = (s: number, a?: string) =>
      send(pos(d.uniqueId, s, 3, 3, { attributes: a ? { alarm: a } : {} }));
    await alarm(0, 'sos'); // sos
    await alarm(10, 'sos'); // repeat: none
    await alarm(20, 'sos,powerCut'); // powerCut
    await alarm(30); // none
    await alarm(40, 'sos'); // sos again
    const alarms = (await events(d.id))
      .filter((e) => e.type === 'alarm')
      .map((e) => JSON.parse(e.attributes).alarm);
    expect(alarms).toEqual(['sos', 'powerCut', 'sos']);
  });
});

describe('geofences', () => {
  it('enters and exits a circle, a polygon and a line (linked to the device or its group)', async () => {
    const group = await createObject(t, 'groups', { name: 'G' });
    const d = await createDevice(t, { groupId: group.id });
    const circle = await createObject(t, 'geofences', { name: 'circle', area: 'CIRCLE (0 0, 1000)' });
    const polygon = await createObject(t, 'geofences', {
      name: 'poly',
      area: 'POLYGON ((10 10, 10 11, 11 11, 11 10, 10 10))',
    });
    const line = await createObject(t, 'geofences', { name: 'line', area: 'LINESTRING (20 20, 20 21)' });
    await link(t, { deviceId: d.id, geofenceId: circle.id });
    await link(t, { groupId: group.id, geofenceId: polygon.id });
    await link(t, { deviceId: d.id, geofenceId: line.id });

    // 0.005° east of the centre = 556.6 m < 1000 m: inside the circle
    const a = await send(pos(d.uniqueId, 0, 0, 0.005));
    expect(a.geofenceIds).toEqual([circle.id]);
    // 0.02° = 2226 m: outside ⇒ exit
    const b = await send(pos(d.uniqueId, 60, 0, 0.02));
    expect(b.geofenceIds).toBeNull();
    await send(pos(d.uniqueId, 120, 10.5, 10.5)); // polygon enter
    await send(pos(d.uniqueId, 180, 11.5, 10.5)); // polygon exit
    // 0.0001° of latitude off the line = 11.1 m ≤ 25 m (default polylineDistance): inside
    await send(pos(d.uniqueId, 240, 20.0001, 20.5));
    // 0.001° = 111 m: outside
    await send(pos(d.uniqueId, 300, 20.001, 20.5));
    const got = (await events(d.id))
      .filter((e) => e.type.startsWith('geofence'))
      .map((e) => [e.type, e.geofenceId]);
    expect(got).toEqual([
      ['geofenceExit', circle.id],
      ['geofenceEnter', polygon.id],
      ['geofenceExit', polygon.id],
      ['geofenceEnter', line.id],
      ['geofenceExit', line.id],
    ]);
  });
});

describe('geofence calendars', () => {
  it('a geofence counts only while its calendar is active', async () => {
    const d = await createDevice(t);
    const ics = Buffer.from(
      'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20240501T120000Z\r\nDTEND:20240501T120100Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    ).toString('base64');
    const cal = await createObject(t, 'calendars', { name: 'one minute', data: ics });
    const g = await createObject(t, 'geofences', {
      name: 'timed',
      area: 'CIRCLE (30 30, 1000)',
      calendarId: cal.id,
    });
    await link(t, { deviceId: d.id, geofenceId: g.id });
    expect((await send(pos(d.uniqueId, 30, 30, 30))).geofenceIds).toEqual([g.id]); // 12:00:30, inside the event
    expect((await send(pos(d.uniqueId, 90, 30, 30))).geofenceIds).toBeNull(); // 12:01:30, after it
  });
});

describe('overspeed', () => {
  it('fires once per excursion above the device speedLimit (knots)', async () => {
    const d = await createDevice(t, { attributes: { speedLimit: 50 } });
    for (const [i, speed] of [40, 60, 70, 40, 80, 90].entries()) {
      await send(pos(d.uniqueId, i * 10, 4, 4 + i * 0.001, { speed }));
    }
    const over = (await events(d.id)).filter((e) => e.type === 'deviceOverspeed');
    expect(over).toHaveLength(2);
    expect(JSON.parse(over[0].attributes)).toEqual({ speed: 60, speedLimit: 50 });
    expect(JSON.parse(over[1].attributes)).toEqual({ speed: 80, speedLimit: 50 });
  });
});

describe('motion events', () => {
  it('stores deviceMoving and deviceStopped from the trip state machine (200 m, 180 s)', async () => {
    const d = await createDevice(t);
    // 0.001° of longitude on the equator = 111.3 m per minute, then parked for 5 minutes
    await send(pos(d.uniqueId, 0, 0, 50));
    await send(pos(d.uniqueId, 60, 0, 50.001));
    await send(pos(d.uniqueId, 120, 0, 50.002)); // 222.6 m from the start ⇒ moving
    for (let s = 180; s <= 480; s += 60) await send(pos(d.uniqueId, s, 0, 50.002));
    const motion = (await events(d.id)).filter(
      (e) => e.type === 'deviceMoving' || e.type === 'deviceStopped',
    );
    expect(motion.map((e) => e.type)).toEqual(['deviceMoving', 'deviceStopped']);
    expect(motion.every((e) => e.positionId > 0)).toBe(true);
  });
});

describe('device status and latest position', () => {
  it('rejects unknown devices and invalid coordinates with a clear result', async () => {
    const live = getLive(t.ctx);
    const r = await live.ingest(pos('no-such-device', 0, 0, 0));
    expect(r).toMatchObject({ ok: false, error: 'unknownDevice' });
    const d = await createDevice(t);
    expect(await live.ingest(pos(d.uniqueId, 0, 91, 0))).toMatchObject({ ok: false, error: 'invalid' });
  });

  it('goes online, keeps positionId on out-of-order fixes, and turns unknown after the timeout', async () => {
    const d = await createDevice(t);
    const live = getLive(t.ctx);
    const p1 = await send(pos(d.uniqueId, 100, 5, 5));
    const p0 = await send(pos(d.uniqueId, 50, 5, 5.001)); // older fix
    const row = async () =>
      (await first(
        t.ctx.store.sql,
        'devices',
        { id: d.id },
        { columns: ['status', 'positionId', 'lastUpdate'] },
      )) as {
        status: string;
        positionId: number;
        lastUpdate: string;
      };
    expect((await row()).status).toBe('online');
    expect((await row()).positionId).toBe(p1.id);
    expect(p0.id).toBeGreaterThan(p1.id);
    await live.sweep(Date.now() + (t.ctx.config.statusTimeoutSeconds + 1) * 1000);
    expect((await row()).status).toBe('unknown');
    expect((await events(d.id)).some((e) => e.type === 'deviceUnknown')).toBe(true);
    expect(live.deviceJson(d.id)?.status).toBe('unknown');
  });

  it('processes a batch of many devices without losing a position', async () => {
    const devices = await Promise.all(Array.from({ length: 20 }, () => createDevice(t)));
    const live = getLive(t.ctx);
    const before = live.stats.stored;
    const batch = devices.flatMap((d, i) => [
      pos(d.uniqueId, 0, 6, 6 + i * 0.01),
      pos(d.uniqueId, 5, 6.001, 6 + i * 0.01),
    ]);
    const results = await live.ingestMany(batch);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(live.stats.stored - before).toBe(40);
  });
});
