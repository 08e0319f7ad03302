// Advanced logs (server/src/ext/logs.ts): GET /{ns}/server/logs, /{ns}/users/{id}/logs, /{ns}/devices/{id}/logs
// over the audit trail (periods up to 92 days), for administrators of a Plus server, in embedded and gateway mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesLog, type ActionLog } from '../../src/ext/logs.ts';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  startGatewayPair,
  type GatewayPair,
  type TestApp,
} from '../helpers/index.ts';

const period = () => {
  const now = Date.now();
  return `from=${new Date(now - 3600_000).toISOString()}&to=${new Date(now + 60_000).toISOString()}`;
};

describe('matchesLog', () => {
  it('users: actions by them or on them; devices: actions on them; server: all', () => {
    const a = { userId: 2, objectType: 'device', objectId: 7 };
    expect(matchesLog(a, { kind: 'server' })).toBe(true);
    expect(matchesLog(a, { kind: 'user', id: 2 })).toBe(true);
    expect(matchesLog(a, { kind: 'user', id: 7 })).toBe(false);
    expect(matchesLog({ userId: 1, objectType: 'user', objectId: 7 }, { kind: 'user', id: 7 })).toBe(true);
    expect(matchesLog(a, { kind: 'device', id: 7 })).toBe(true);
    expect(matchesLog({ userId: 1, objectType: 'user', objectId: 7 }, { kind: 'device', id: 7 })).toBe(false);
  });
});

describe('embedded mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists what was done to a device and by a user, newest first, with the user e-mail', async () => {
    const d = await createDevice(t);
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}`, { ...d, name: 'Renamed' }), 200);
    const g = await createObject(t, 'geofences', { name: 'G', area: 'CIRCLE (1 2, 100)' });
    await link(t, { deviceId: d.id, geofenceId: g.id });
    const logs = expectStatus<ActionLog[]>(
      await api(t.app, t.admin, 'GET', `/rastro/devices/${d.id}/logs?${period()}`),
      200,
    );
    expect(logs.map((l) => l.actionType)).toEqual(['link', 'edit', 'create']);
    expect(logs.every((l) => l.objectType === 'device' && l.objectId === d.id)).toBe(true);
    expect(logs[0].userEmail).toBe('admin');
    expect(Date.parse(logs[0].actionTime)).toBeGreaterThanOrEqual(Date.parse(logs[2].actionTime));

    const u = await createUser(t); // created by the admin, then signs in
    const userLogs = expectStatus<ActionLog[]>(
      await api(t.app, t.admin, 'GET', `/rastro/users/${u.id}/logs?${period()}`),
      200,
    );
    expect(userLogs.map((l) => `${l.actionType}:${l.userId}`)).toEqual([`login:${u.id}`, `create:1`]); // the seeded admin is user 1

    const all = expectStatus<ActionLog[]>(
      await api(t.app, t.admin, 'GET', `/rastro/server/logs?${period()}`),
      200,
    );
    expect(all.length).toBeGreaterThanOrEqual(logs.length + userLogs.length);
  });

  it('refuses non-administrators and bad queries with clear texts, never 500', async () => {
    const u = await createUser(t);
    const res = await api(t.app, u.cookie, 'GET', `/rastro/server/logs?${period()}`);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Administrator access required');
    expect((await api(t.app, null, 'GET', `/rastro/server/logs?${period()}`)).statusCode).toBe(401);
    const noDates = await api(t.app, t.admin, 'GET', '/rastro/server/logs');
    expect(noDates.statusCode).toBe(400);
    const long = await api(
      t.app,
      t.admin,
      'GET',
      '/rastro/server/logs?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z',
    );
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('92 days');
    const reversed = await api(
      t.app,
      t.admin,
      'GET',
      '/rastro/server/logs?from=2026-03-01T00:00:00Z&to=2026-02-01T00:00:00Z',
    );
    expect(reversed.body).toContain('from must not be after to');
    const badId = await api(t.app, t.admin, 'GET', `/rastro/devices/abc/logs?${period()}`);
    expect(badId.statusCode).toBe(400);
  });

  it('needs a Plus server', async () => {
    const basic = await makeTestApp({ edition: 'basic' });
    try {
      const res = await api(basic.app, basic.admin, 'GET', `/rastro/server/logs?${period()}`);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Plus');
    } finally {
      await basic.close();
    }
  });
});

describe('gateway mode', () => {
  let pair: GatewayPair;
  beforeAll(async () => {
    pair = await startGatewayPair('rastro-gw-logs-');
  });
  afterAll(async () => {
    await pair.close();
  });

  it('reads the upstream audit with the caller credentials and filters it by device', async () => {
    const up = pair.upstream;
    const d = await createDevice(up);
    expectStatus(
      await api(up.app, up.admin, 'PUT', `/api/devices/${d.id}`, { ...d, name: 'Up renamed' }),
      200,
    );
    const res = await fetch(`${pair.url}/${pair.ns}/devices/${d.id}/logs?${period()}`, {
      headers: { cookie: up.admin },
    });
    expect(res.status).toBe(200);
    const logs = (await res.json()) as ActionLog[];
    expect(logs.map((l) => l.actionType)).toEqual(['edit', 'create']);
    const anon = await fetch(`${pair.url}/${pair.ns}/server/logs?${period()}`);
    expect(anon.status).toBe(401);
  });
});
