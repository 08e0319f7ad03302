import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';

type Obj = Record<string, unknown>;

describe('audit and statistics (admin only)', () => {
  let t: TestApp;
  const start = new Date(Date.now() - 60_000).toISOString();
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

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

  it('statistics: one row per UTC day with stored messages, devices, protocols, logins and requests', async () => {
    const d1 = await createDevice(t);
    const d2 = await createDevice(t);
    const insert = t.ctx.store.sqlite.prepare(
      `INSERT INTO positions (deviceId, protocol, serverTime, deviceTime, fixTime, latitude, longitude)
       VALUES (?, ?, ?, ?, ?, 0, 0)`,
    );
    for (const [dev, proto, time] of [
      [d1.id, 'osmand', '2024-05-01T08:00:00.000Z'],
      [d1.id, 'osmand', '2024-05-01T09:00:00.000+00:00'],
      [d2.id, 'h02', '2024-05-01T23:59:59.999Z'],
      [d2.id, 'osmand', '2024-05-02T00:00:00.000Z'],
    ] as const) {
      insert.run(dev, proto, time, time, time);
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
    const today = expectStatus<Obj[]>(await api(t.app, t.admin, 'GET', `/api/statistics?${range()}`), 200);
    const last = today[today.length - 1];
    expect(last.requests as number).toBeGreaterThan(5);
    expect(last.activeUsers as number).toBeGreaterThanOrEqual(2);
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
