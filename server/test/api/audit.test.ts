import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statisticsRows } from '../../src/traccar/audit.ts';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { first, insert, update } from '../support/testSql.ts';

type Obj = Record<string, unknown>;

/** A position of the device at `time` (server, device and fix time alike). */
const addPosition = async (t: TestApp, deviceId: number, protocol: string, time: string) =>
  await insert(t.ctx.store.sql, 'positions', {
    deviceId,
    protocol,
    serverTime: time,
    deviceTime: time,
    fixTime: time,
    latitude: 0,
    longitude: 0,
  });

describe('audit and statistics (admin only)', () => {
  let t: TestApp;
  const start = new Date(Date.now() - 60_000).toISOString();
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());
  const setTimeZone = async (tz: string) => {
    const sql = t.ctx.store.sql;
    const { attributes } = (await first(sql, 'server', { id: 1 }, { columns: ['attributes'] })) as {
      attributes: string;
    };
    await update(
      sql,
      'server',
      { attributes: JSON.stringify({ ...(JSON.parse(attributes) as object), timezone: tz }) },
      { id: 1 },
    );
  };
  beforeAll(async () => {
    await setTimeZone('UTC');
  });

  const range = () =>
    `from=${encodeURIComponent(start)}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;

  it('records logins, object writes and links with user and object', async () => {
    const u = await createUser(t, { email: 'audited@x' });
    const d = await createDevice(t, { name: 'Audited' });
    await link(t, { userId: u.id, deviceId: d.id });
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}`, { ...d, name: 'Renamed' }), 200);
    expect((await api(t.app, t.admin, 'DELETE', `/api/devices/${d.id}`)).statusCode).toBe(204);
    const actions = expectStatus<Obj[]>(await api(t.app, t.admin, 'GET', `/api/audit?${range()}`), 200);
    const summary = actions.map((a) => `${a.actionType}:${a.objectType}:${a.objectId}:${a.userId}`);
    expect(summary).toEqual(
      expect.arrayContaining([
        `login:user:1:1`,
        `create:user:${u.id}:1`,
        `login:user:${u.id}:${u.id}`,
        `create:device:${d.id}:1`,
        `link:user:${u.id}:1`,
        `edit:device:${d.id}:1`,
        `remove:device:${d.id}:1`,
      ]),
    );
    const linkAction = actions.find((a) => a.actionType === 'link')!;
    expect(linkAction).toMatchObject({
      userEmail: 'admin',
      attributes: { propertyType: 'device', propertyId: d.id },
    });
    expect(linkAction.actionTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    expect(Object.keys(linkAction).sort()).toEqual(
      [
        'id',
        'attributes',
        'actionTime',
        'address',
        'userId',
        'userEmail',
        'actionType',
        'objectType',
        'objectId',
      ].sort(),
    );
  });

  it('statistics: one row per finished day (server zone UTC) with stored messages, devices, protocols, logins and requests', async () => {
    const d1 = await createDevice(t);
    const d2 = await createDevice(t);
    const store = async (deviceId: number, protocol: string, time: string) =>
      await addPosition(t, deviceId, protocol, time);
    for (const [dev, proto, time] of [
      [d1.id, 'osmand', '2024-05-01T08:00:00.000Z'],
      [d1.id, 'osmand', '2024-05-01T09:00:00.000+00:00'],
      [d2.id, 'h02', '2024-05-01T23:59:59.999Z'],
      [d2.id, 'osmand', '2024-05-02T00:00:00.000Z'],
    ] as const) {
      await store(dev, proto, time);
    }
    const rows = expectStatus<Obj[]>(
      await api(t.app, t.admin, 'GET', '/api/statistics?from=2024-05-01T00:00:00Z&to=2024-05-03T00:00:00Z'),
      200,
    );
    expect(rows.map((r) => r.captureTime)).toEqual([
      '2024-05-01T00:00:00.000+00:00',
      '2024-05-02T00:00:00.000+00:00',
      '2024-05-03T00:00:00.000+00:00',
    ]);
    expect(rows[0]).toMatchObject({
      activeDevices: 2,
      messagesReceived: 3,
      messagesStored: 3,
      protocols: { osmand: 2, h02: 1 },
      mailSent: 0,
      attributes: {},
    });
    expect(rows[1]).toMatchObject({ activeDevices: 1, messagesStored: 1, protocols: { osmand: 1 } });
    expect(rows[2]).toMatchObject({ activeDevices: 0, messagesStored: 0, protocols: {} });
    // Today is not finished: no row for it yet.
    const today = expectStatus<Obj[]>(await api(t.app, t.admin, 'GET', `/api/statistics?${range()}`), 200);
    expect(today).toEqual([]);
    // Seen from tomorrow, today's row counts this test's requests and logins.
    const midnight = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const [row] = await statisticsRows(t.ctx, midnight, midnight, midnight + 86_400_000);
    expect(row.captureTime).toBe(new Date(midnight).toISOString().replace('Z', '+00:00'));
    expect(row.requests).toBeGreaterThan(5);
    expect(row.activeUsers).toBeGreaterThanOrEqual(2);
  });

  it('finding: statistics are per finished day of the server time zone, filed under that local date', async () => {
    await setTimeZone('America/Sao_Paulo');
    try {
      const d = await createDevice(t);
      const store = async (deviceId: number, time: string) => await addPosition(t, deviceId, 'osmand', time);
      // 2024-06-10 02:30Z is still 9 June in São Paulo (UTC-3); 2024-06-10 03:00Z is 10 June 00:00 there.
      for (const time of [
        '2024-06-10T02:30:00.000Z',
        '2024-06-10T03:00:00.000Z',
        '2024-06-11T02:59:59.000Z',
      ]) {
        await store(d.id, time);
      }
      const rows = expectStatus<Obj[]>(
        await api(t.app, t.admin, 'GET', '/api/statistics?from=2024-06-09T03:00:00Z&to=2024-06-10T03:00:00Z'),
        200,
      );
      expect(rows.map((r) => r.captureTime)).toEqual([
        '2024-06-09T03:00:00.000+00:00',
        '2024-06-10T03:00:00.000+00:00',
      ]);
      expect(rows.map((r) => r.messagesStored)).toEqual([1, 2]);
    } finally {
      await setTimeZone('UTC');
    }
  });

  it('a day of 23 hours (DST start) is cut at its local midnights', async () => {
    await setTimeZone('Europe/Berlin');
    try {
      const d = await createDevice(t);
      const store = async (deviceId: number, time: string) => await addPosition(t, deviceId, 'h02', time);
      // 31 March 2024 in Berlin: 30 Mar 23:00Z .. 31 Mar 22:00Z (clocks jump at 01:00Z).
      for (const time of [
        '2024-03-30T22:59:00.000Z',
        '2024-03-30T23:00:00.000Z',
        '2024-03-31T21:59:00.000Z',
      ]) {
        await store(d.id, time);
      }
      const rows = expectStatus<Obj[]>(
        await api(t.app, t.admin, 'GET', '/api/statistics?from=2024-03-30T00:00:00Z&to=2024-03-31T00:00:00Z'),
        200,
      );
      expect(rows.map((r) => [r.captureTime, (r.protocols as Record<string, number>).h02 ?? 0])).toEqual([
        ['2024-03-30T23:00:00.000+00:00', 2],
      ]);
      const next = expectStatus<Obj[]>(
        await api(t.app, t.admin, 'GET', '/api/statistics?from=2024-03-31T22:00:00Z&to=2024-03-31T22:00:00Z'),
        200,
      );
      expect(next.map((r) => r.captureTime)).toEqual(['2024-03-31T22:00:00.000+00:00']);
    } finally {
      await setTimeZone('UTC');
    }
  });

  it('admin only; from/to required, zoned and ordered; period limited', async () => {
    const u = await createUser(t);
    expect((await api(t.app, u.cookie, 'GET', `/api/audit?${range()}`)).body).toBe(
      'SecurityException: Administrator access required',
    );
    expect((await api(t.app, u.cookie, 'GET', `/api/statistics?${range()}`)).body).toBe(
      'SecurityException: Administrator access required',
    );
    expect((await api(t.app, t.admin, 'GET', '/api/audit')).statusCode).toBe(400);
    expect(
      (await api(t.app, t.admin, 'GET', '/api/audit?from=2024-05-01T00:00:00&to=2024-05-02T00:00:00Z'))
        .statusCode,
    ).toBe(400);
    expect(
      (await api(t.app, t.admin, 'GET', '/api/statistics?from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z'))
        .statusCode,
    ).toBe(400);
    const long = await api(
      t.app,
      t.admin,
      'GET',
      '/api/statistics?from=2020-01-01T00:00:00Z&to=2024-01-01T00:00:00Z',
    );
    expect(long.body).toContain('Time period exceeds the limit');
  });
});
