// GET/DELETE /api/positions in all forms, exports, accumulators, GET /api/events/{id} (CONTRACT §4).
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createObject,
  createUser,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { reportAt } from '../support/report.ts';
import { count as countRows, first } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

// a day ago, whole seconds (latest positions must be within 90 days)
const T0 = Math.floor((Date.now() - 86_400_000) / 1000) * 1000;
const T0_TEXT = new Date(T0).toISOString().replace('Z', '+00:00');
const send = async (
  uniqueId: string,
  s: number,
  lat: number,
  lon: number,
  attributes: Record<string, unknown> = {},
) => {
  const r = await getLive(t.ctx).ingest(
    reportAt(uniqueId, T0, s, { latitude: lat, longitude: lon, attributes }),
  );
  if (!r.ok) throw new Error(r.message);
  return r.position;
};
const q = (from: number, to: number) =>
  `from=${encodeURIComponent(new Date(T0 + from * 1000).toISOString())}&to=${encodeURIComponent(
    new Date(T0 + to * 1000).toISOString().replace('Z', '+00:00'),
  )}`;

describe('GET /api/positions', () => {
  it('latest of visible devices (90 days), a device latest, history in fixTime order, by id', async () => {
    const u = await createUser(t);
    const a = await createDevice(t);
    const b = await createDevice(t);
    const old = await createDevice(t);
    await link(t, { userId: u.id, deviceId: a.id });
    await link(t, { userId: u.id, deviceId: old.id });
    const p1 = await send(a.uniqueId, 0, 1, 1);
    const p3 = await send(a.uniqueId, 120, 1, 1.002);
    const p2 = await send(a.uniqueId, 60, 1, 1.001); // arrives late
    await send(b.uniqueId, 0, 2, 2);
    await getLive(t.ctx).ingest({
      uniqueId: old.uniqueId,
      protocol: 'osmand',
      fixTime: new Date(Date.now() - 100 * 86_400_000),
      latitude: 3,
      longitude: 3,
    });
    // the late position is stored but is not the latest; positions within 90 days only
    const latest = (await api(t.app, u.cookie, 'GET', '/api/positions')).json() as Array<{ id: number }>;
    expect(latest.map((p) => p.id)).toEqual([p3.id]);
    const one = (await api(t.app, u.cookie, 'GET', `/api/positions?deviceId=${a.id}`)).json() as Array<{
      id: number;
    }>;
    expect(one.map((p) => p.id)).toEqual([p3.id]);
    const hist = await api(t.app, u.cookie, 'GET', `/api/positions?deviceId=${a.id}&${q(0, 120)}`);
    expect(hist.statusCode).toBe(200);
    expect((hist.json() as Array<{ id: number }>).map((p) => p.id)).toEqual([p1.id, p2.id, p3.id]);
    const first = hist.json()[0];
    expect(first.fixTime).toBe(T0_TEXT);
    expect(first).toHaveProperty('address', null);
    const byId = await api(t.app, u.cookie, 'GET', `/api/positions?id=${p1.id}&id=${p3.id}`);
    expect((byId.json() as Array<{ id: number }>).map((p) => p.id)).toEqual([p1.id, p3.id]);
    // another user's device
    const denied = await api(t.app, u.cookie, 'GET', `/api/positions?deviceId=${b.id}`);
    expect(denied.body).toBe('SecurityException: Device access denied');
  });

  it('history inside a geofence only, and validation of dates', async () => {
    const d = await createDevice(t);
    const g = await createObject(t, 'geofences', { name: 'c', area: 'CIRCLE (0 0, 1000)' });
    await send(d.uniqueId, 0, 0, 0);
    await send(d.uniqueId, 60, 0, 0.05);
    const inside = await api(
      t.app,
      t.admin,
      'GET',
      `/api/positions?deviceId=${d.id}&${q(0, 60)}&geofenceId=${g.id}`,
    );
    expect((inside.json() as unknown[]).length).toBe(1);
    const bad = await api(
      t.app,
      t.admin,
      'GET',
      `/api/positions?deviceId=${d.id}&from=2024-05-01T00:00:00&to=x`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('invalid date');
  });

  it('disableReports blocks history and ids but not the latest positions', async () => {
    const u = await createUser(t, { disableReports: true });
    const d = await createDevice(t);
    await link(t, { userId: u.id, deviceId: d.id });
    const p = await send(d.uniqueId, 0, 1, 1);
    expect((await api(t.app, u.cookie, 'GET', `/api/positions?deviceId=${d.id}`)).statusCode).toBe(200);
    const hist = await api(t.app, u.cookie, 'GET', `/api/positions?deviceId=${d.id}&${q(0, 60)}`);
    expect(hist.body).toBe('SecurityException: Operation restricted');
    expect((await api(t.app, u.cookie, 'GET', `/api/positions?id=${p.id}`)).body).toBe(
      'SecurityException: Operation restricted',
    );
    expect(
      (await api(t.app, u.cookie, 'GET', `/api/positions/csv?deviceId=${d.id}&${q(0, 60)}`)).statusCode,
    ).toBe(400);
  });
});

describe('DELETE /api/positions', () => {
  it('deletes one or a range; refused for readonly users', async () => {
    const d = await createDevice(t);
    const ro = await createUser(t, { readonly: true });
    await link(t, { userId: ro.id, deviceId: d.id });
    const p1 = await send(d.uniqueId, 0, 1, 1);
    await send(d.uniqueId, 60, 1, 1);
    await send(d.uniqueId, 120, 1, 1);
    const refused = await api(t.app, ro.cookie, 'DELETE', `/api/positions/${p1.id}`);
    expect(refused.body).toBe('SecurityException: Operation restricted');
    expect((await api(t.app, t.admin, 'DELETE', `/api/positions/${p1.id}`)).statusCode).toBe(204);
    expect(
      (await api(t.app, t.admin, 'DELETE', `/api/positions?deviceId=${d.id}&${q(30, 90)}`)).statusCode,
    ).toBe(204);
    const left = (
      await api(t.app, t.admin, 'GET', `/api/positions?deviceId=${d.id}&${q(0, 200)}`)
    ).json() as unknown[];
    expect(left).toHaveLength(1);
  });
});

describe('exports', () => {
  it('csv, gpx, kml and kmz as attachments', async () => {
    const d = await createDevice(t, { name: 'Truck <1>' });
    await send(d.uniqueId, 0, -23.5, -46.6);
    await send(d.uniqueId, 60, -23.6, -46.7);
    for (const [ext, needle] of [
      ['csv', '-23.5,-46.6'],
      ['gpx', '<trkpt lat="-23.6" lon="-46.7">'],
      ['kml', '-46.6,-23.5,0 -46.7,-23.6,0'],
    ]) {
      const res = await api(t.app, t.admin, 'GET', `/api/positions/${ext}?deviceId=${d.id}&${q(0, 60)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename=positions.${ext}`);
      expect(res.body).toContain(needle);
    }
    const kml = await api(t.app, t.admin, 'GET', `/api/positions/kml?deviceId=${d.id}&${q(0, 60)}`);
    expect(kml.body).toContain('Truck &lt;1&gt;');
    // kmz: the same KML zipped as doc.kml
    const kmz = await api(t.app, t.admin, 'GET', `/api/positions/kmz?deviceId=${d.id}&${q(0, 60)}`);
    expect(kmz.statusCode).toBe(200);
    expect(kmz.headers['content-disposition']).toBe('attachment; filename=positions.kmz');
    expect(kmz.headers['content-type']).toContain('application/vnd.google-earth.kmz');
    const zipped = kmz.rawPayload;
    expect(zipped.readUInt32LE(0)).toBe(0x04034b50);
    const nameLength = zipped.readUInt16LE(26);
    expect(zipped.subarray(30, 30 + nameLength).toString()).toBe('doc.kml');
    const packed = zipped.subarray(30 + nameLength, 30 + nameLength + zipped.readUInt32LE(18));
    expect(inflateRawSync(packed).toString()).toBe(kml.body);
  });
});

describe('PUT /api/devices/{id}/accumulators', () => {
  it('gives the latest position the new totals (204); 400 without a position; deviceReadonly denied', async () => {
    const d = await createDevice(t);
    const none = await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}/accumulators`, {
      deviceId: d.id,
      totalDistance: 5,
    });
    expect(none.statusCode).toBe(400);
    const p = await send(d.uniqueId, 0, 1, 1, { ignition: true });
    const res = await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}/accumulators`, {
      deviceId: d.id,
      totalDistance: 123456,
      hours: 3_600_000,
    });
    expect(res.statusCode).toBe(204);
    const latest = (await getLive(t.ctx).latestPositionAsync(d.id))!;
    // one position per device and fix time (issue #30): the latest is changed in place, not copied
    expect(latest.id).toBe(p.id);
    expect(await countRows(t.ctx.store.sql, 'positions', { deviceId: d.id })).toBe(1);
    const stored = await first(t.ctx.store.sql, 'positions', { id: p.id }, { columns: ['attributes'] });
    expect(JSON.parse((stored as { attributes: string }).attributes)).toMatchObject({
      totalDistance: 123456,
    });
    expect(latest.attributes).toMatchObject({ totalDistance: 123456, hours: 3_600_000, ignition: true });
    expect(latest.fixTime).toBe(p.fixTime);
    const row = (await first(t.ctx.store.sql, 'devices', { id: d.id }, { columns: ['positionId'] })) as {
      positionId: number;
    };
    expect(row.positionId).toBe(latest.id);
    // the next position accumulates from the new total: 0.01° on the equator = 1113.19 m
    const next = await send(d.uniqueId, 60, 1, 1.01);
    expect(next.attributes.totalDistance).toBeCloseTo(123456 + 1113.02, 0);

    const ro = await createUser(t, { deviceReadonly: true });
    await link(t, { userId: ro.id, deviceId: d.id });
    const denied = await api(t.app, ro.cookie, 'PUT', `/api/devices/${d.id}/accumulators`, {
      deviceId: d.id,
      hours: 0,
    });
    expect(denied.body).toBe('SecurityException: Write access denied');
    const bad = await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}/accumulators`, {
      totalDistance: 'far',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/events/{id}', () => {
  it('returns the event to users who see its device; 404 when missing', async () => {
    const d = await createDevice(t);
    await send(d.uniqueId, 0, 1, 1, { alarm: 'sos' });
    const ev = (await first(
      t.ctx.store.sql,
      'events',
      { deviceId: d.id, type: 'alarm' },
      { columns: ['id'] },
    )) as {
      id: number;
    };
    const res = await api(t.app, t.admin, 'GET', `/api/events/${ev.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: ev.id,
      type: 'alarm',
      deviceId: d.id,
      attributes: { alarm: 'sos' },
      geofenceId: 0,
    });
    expect(res.json().eventTime).toBe(T0_TEXT);
    const stranger = await createUser(t);
    expect((await api(t.app, stranger.cookie, 'GET', `/api/events/${ev.id}`)).body).toBe(
      'SecurityException: Device access denied',
    );
    expect((await api(t.app, t.admin, 'GET', '/api/events/999999')).statusCode).toBe(404);
  });
});
