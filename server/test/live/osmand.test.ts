// OsmAnd protocol (CONTRACT §10): every parameter, GET / POST form / JSON, errors, timestamps, queued commands.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, makeTestApp, type TestApp } from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import {
  decodeOsmAndJson,
  decodeOsmAndParams,
  parseTimestamp,
  startOsmAndServer,
} from '../../src/live/osmand.ts';
import { first } from '../support/testSql.ts';

let t: TestApp;
let server: Server;
let base: string;
beforeAll(async () => {
  t = await makeTestApp();
  server = await startOsmAndServer(t.ctx, getLive(t.ctx), 0, '127.0.0.1');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

const latest = async (deviceId: number) => (await getLive(t.ctx).latestPositionAsync(deviceId))!;

describe('decoding', () => {
  it('parses seconds, milliseconds, ISO and "yyyy-MM-dd HH:mm:ss" timestamps', () => {
    expect(parseTimestamp('1714564800')?.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(parseTimestamp('1714564800123')?.toISOString()).toBe('2024-05-01T12:00:00.123Z');
    expect(parseTimestamp('2024-05-01T12:00:00Z')?.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(parseTimestamp('2024-05-01T14:00:00+02:00')?.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(parseTimestamp('2024-05-01 12:00:00')?.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(parseTimestamp('yesterday')).toBeNull();
  });

  it('maps every documented parameter', () => {
    const q = new URLSearchParams(
      'deviceid=abc&timestamp=1714564800&lat=-23.55&lon=-46.63&speed=12.5&bearing=90&altitude=760&accuracy=8' +
        '&hdop=1.2&batt=87&charge=true&valid=false&driverUniqueId=D42&cell=724,5,1234,5678,-70&cell=724,5,1,2' +
        '&wifi=aa-bb-cc-dd-ee-ff,-60&alarm=sos&ignition=true&rpm=2100&battery_health=good&notificationToken=tok',
    );
    const r = decodeOsmAndParams(q);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.uniqueId).toBe('abc');
    expect(r.notificationToken).toBe('tok');
    expect(r.position).toMatchObject({
      protocol: 'osmand',
      latitude: -23.55,
      longitude: -46.63,
      speed: 12.5,
      course: 90,
      altitude: 760,
      accuracy: 8,
      valid: false,
    });
    expect(r.position.fixTime.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(r.position.attributes).toEqual({
      hdop: 1.2,
      batteryLevel: 87,
      charge: true,
      driverUniqueId: 'D42',
      alarm: 'sos',
      ignition: true,
      rpm: 2100,
      battery_health: 'good',
    });
    expect(r.position.network).toEqual({
      cellTowers: [
        {
          mobileCountryCode: 724,
          mobileNetworkCode: 5,
          locationAreaCode: 1234,
          cellId: 5678,
          signalStrength: -70,
        },
        { mobileCountryCode: 724, mobileNetworkCode: 5, locationAreaCode: 1, cellId: 2 },
      ],
      wifiAccessPoints: [{ macAddress: 'aa:bb:cc:dd:ee:ff', signalStrength: -60 }],
    });
  });

  it('accepts heading and location=lat,lon; refuses a missing id or a bad number', () => {
    const r = decodeOsmAndParams(new URLSearchParams('id=x&location=1.5,2.5&heading=45'));
    expect(r.ok && r.position).toMatchObject({ latitude: 1.5, longitude: 2.5, course: 45 });
    expect(decodeOsmAndParams(new URLSearchParams('lat=1&lon=2'))).toMatchObject({ ok: false, status: 400 });
    expect(decodeOsmAndParams(new URLSearchParams('id=x&lat=abc&lon=2'))).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it('decodes the JSON variant (speed m/s → knots, battery level 0..1 → %)', () => {
    const [r] = decodeOsmAndJson({
      device_id: 'j1',
      location: {
        timestamp: '2024-05-01T12:00:00.000Z',
        coords: { latitude: 10, longitude: 20, speed: 10, heading: 180, accuracy: 5, altitude: 30 },
        is_moving: true,
        odometer: 1234,
        event: 'motionchange',
        battery: { level: 0.5, is_charging: false },
        activity: { type: 'in_vehicle' },
        extras: { foo: 'bar' },
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.position.speed).toBeCloseTo(19.43844, 5);
    expect(r.position).toMatchObject({ latitude: 10, longitude: 20, course: 180, accuracy: 5, altitude: 30 });
    expect(r.position.attributes).toEqual({
      motion: true,
      odometer: 1234,
      event: 'motionchange',
      batteryLevel: 50,
      charge: false,
      activity: 'in_vehicle',
      foo: 'bar',
    });
  });
});

describe('speed unit (osmand.speed)', () => {
  const speedOf = (unit: 'knots' | 'kmh' | 'mps' | 'mph', v: string) => {
    const r = decodeOsmAndParams(
      [
        ['id', 'x'],
        ['lat', '1'],
        ['lon', '2'],
        ['speed', v],
      ],
      new Date(),
      unit,
    );
    if (!r.ok) throw new Error(r.message);
    return r.position.speed;
  };
  it('stores knots: as sent by default, converted from km/h, m/s and mph', () => {
    expect(speedOf('knots', '10')).toBe(10);
    expect(speedOf('kmh', '100')).toBeCloseTo(53.99568, 4);
    expect(speedOf('mps', '10')).toBeCloseTo(19.43844, 4);
    expect(speedOf('mph', '60')).toBeCloseTo(52.13857, 4);
  });

  it('applies OSMAND_SPEED to positions received over HTTP', async () => {
    const k = await makeTestApp({ osmandSpeed: 'kmh' });
    try {
      const d = await createDevice(k);
      const res = await k.app.inject({
        method: 'POST',
        url: `/?id=${d.uniqueId}&lat=1&lon=2&timestamp=1714564800&speed=185.2`,
      });
      expect(res.statusCode).toBe(200);
      expect((await getLive(k.ctx).latestPositionAsync(d.id))!.speed).toBeCloseTo(100, 6);
    } finally {
      await k.close();
    }
  });
});

describe('HTTP', () => {
  it('GET with a query string on the OsmAnd port stores the position (200, empty body)', async () => {
    const d = await createDevice(t);
    const res = await fetch(`${base}/?id=${d.uniqueId}&lat=1&lon=2&timestamp=1714564800&speed=10`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(await latest(d.id)).toMatchObject({ latitude: 1, longitude: 2, speed: 10, protocol: 'osmand' });
  });

  it('POST form on the OsmAnd port and POST / on the web port', async () => {
    const d = await createDevice(t);
    const res = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `id=${d.uniqueId}&lat=3&lon=4&timestamp=1714564900`,
    });
    expect(res.status).toBe(200);
    expect(await latest(d.id)).toMatchObject({ latitude: 3, longitude: 4 });
    const web = await t.app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${d.uniqueId}&lat=5&lon=6&timestamp=1714565000`,
    });
    expect(web.statusCode).toBe(200);
    expect(await latest(d.id)).toMatchObject({ latitude: 5, longitude: 6 });
    const plain = await t.app.inject({ method: 'POST', url: '/', payload: `id=${d.uniqueId}&lat=7&lon=6` });
    expect(plain.statusCode).toBe(200);
    expect(await latest(d.id)).toMatchObject({ latitude: 7, longitude: 6 });
    const query = await t.app.inject({ method: 'POST', url: `/?id=${d.uniqueId}&lat=8&lon=6` });
    expect(query.statusCode).toBe(200);
    expect(await latest(d.id)).toMatchObject({ latitude: 8, longitude: 6 });
  });

  it('the query wins over the body when both are present', async () => {
    const d = await createDevice(t);
    const res = await fetch(`${base}/?id=${d.uniqueId}&lat=7&lon=8`, {
      method: 'POST',
      body: 'id=other&lat=0&lon=0',
    });
    expect(res.status).toBe(200);
    expect(await latest(d.id)).toMatchObject({ latitude: 7, longitude: 8 });
  });

  it('JSON variant: 200 for a known device, 404 for an unknown one', async () => {
    const d = await createDevice(t);
    const body = (id: string) =>
      JSON.stringify({
        device_id: id,
        location: { timestamp: '2024-05-01T12:00:00Z', coords: { latitude: 9, longitude: 9 } },
      });
    const ok = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(d.uniqueId),
    });
    expect(ok.status).toBe(200);
    expect(await latest(d.id)).toMatchObject({ latitude: 9, longitude: 9 });
    const unknown = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body('nope'),
    });
    expect(unknown.status).toBe(404);
  });

  it('400 for an unknown or missing device id and for bad values', async () => {
    expect((await fetch(`${base}/?id=does-not-exist&lat=1&lon=1`)).status).toBe(400);
    expect((await fetch(`${base}/?lat=1&lon=1`)).status).toBe(400);
    const d = await createDevice(t);
    expect((await fetch(`${base}/?id=${d.uniqueId}&lat=100&lon=1`)).status).toBe(400);
    expect((await fetch(`${base}/?id=${d.uniqueId}&lat=1&lon=1&timestamp=soon`)).status).toBe(400);
    const web = await t.app.inject({ method: 'POST', url: '/', payload: 'id=nope&lat=1&lon=1' });
    expect(web.statusCode).toBe(400);
  });

  it('a token upload without a fix stores the token and reuses the last location', async () => {
    const d = await createDevice(t);
    await fetch(`${base}/?id=${d.uniqueId}&lat=11&lon=12&timestamp=1714564800`);
    const res = await fetch(base, { method: 'POST', body: `id=${d.uniqueId}&notificationToken=abc123` });
    expect(res.status).toBe(200);
    const attrs = JSON.parse(
      (
        (await first(t.ctx.store.sql, 'devices', { id: d.id }, { columns: ['attributes'] })) as {
          attributes: string;
        }
      ).attributes,
    );
    expect(attrs.notificationTokens).toBe('abc123');
    expect(await latest(d.id)).toMatchObject({ latitude: 11, longitude: 12, valid: false });
  });

  it('finding: positions carry `outdated` (true live for a message without a fix, false once stored)', async () => {
    const d = await createDevice(t);
    await fetch(`${base}/?id=${d.uniqueId}&lat=11&lon=12&timestamp=1714564800`);
    expect((await getLive(t.ctx).latestPositionAsync(d.id))?.outdated).toBe(false);
    await fetch(base, { method: 'POST', body: `id=${d.uniqueId}&notificationToken=abc123` });
    expect(await getLive(t.ctx).latestPositionAsync(d.id)).toMatchObject({
      latitude: 11,
      longitude: 12,
      outdated: true,
    });
    const stored = (await (
      await t.app.inject({
        method: 'GET',
        url: `/api/positions?deviceId=${d.id}&from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
        headers: { cookie: t.admin },
      })
    ).json()) as Array<{ outdated: boolean }>;
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((p) => p.outdated === false)).toBe(true);
  });

  it('answers with the queued command data on the next report', async () => {
    const d = await createDevice(t);
    await getLive(t.ctx).queueCommand(d.id, {
      type: 'custom',
      textChannel: false,
      attributes: { data: 'interval=30' },
    });
    const first = await fetch(`${base}/?id=${d.uniqueId}&lat=1&lon=1`);
    expect(await first.text()).toBe('interval=30');
    const second = await fetch(`${base}/?id=${d.uniqueId}&lat=1&lon=1`);
    expect(await second.text()).toBe('');
  });
});
