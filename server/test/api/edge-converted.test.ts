// Issue #27 (continuation): routes moved to the edge (server/src/edge.ts) answer bad input as they did when their
// handlers parsed it: 401 without a caller first, then the same 400 texts; the handler sees the parsed values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

describe('routes converted to the edge keep their answers', () => {
  let t: TestApp;
  let deviceId: number;
  beforeAll(async () => {
    t = await makeTestApp();
    deviceId = (await createDevice(t, { name: 'Edge car' })).id;
  });
  afterAll(async () => t.close());

  it('positions and events: 401 before the 400 of a bad id, then the same texts', async () => {
    expect((await api(t.app, null, 'GET', '/api/events/abc')).statusCode).toBe(401);
    expect((await api(t.app, null, 'DELETE', '/api/positions/abc')).statusCode).toBe(401);
    const ev = await api(t.app, t.admin, 'GET', '/api/events/abc');
    expect(ev.statusCode).toBe(400);
    expect(ev.body).toContain('invalid id');
    expect((await api(t.app, t.admin, 'GET', '/api/events/999999')).statusCode).toBe(404);
    expect((await api(t.app, t.admin, 'DELETE', '/api/positions/999999')).statusCode).toBe(404);
  });

  it('positions: a bad date or id in the query is a 400 naming the key; a good query is parsed', async () => {
    const bad = await api(t.app, t.admin, 'GET', `/api/positions?deviceId=${deviceId}&from=yesterday&to=x`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('from: invalid date "yesterday"');
    const badId = await api(t.app, t.admin, 'GET', '/api/positions?deviceId=x1');
    expect(badId.statusCode).toBe(400);
    expect(badId.body).toContain('deviceId: invalid id "x1"');
    const span = 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z';
    const ok = await api(t.app, t.admin, 'GET', `/api/positions?deviceId=${deviceId}&${span}`);
    expect(expectStatus(ok, 200)).toEqual([]);
    const csv = await api(t.app, t.admin, 'GET', `/api/positions/csv?deviceId=${deviceId}&${span}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.startsWith('id,deviceId,fixTime')).toBe(true);
    const reversed = 'from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z';
    const rev = await api(t.app, t.admin, 'DELETE', `/api/positions?deviceId=${deviceId}&${reversed}`);
    expect(rev.statusCode).toBe(400);
    expect(rev.body).toContain('from must not be after to');
  });

  it('accumulators: an array or a negative value is a 400, after the 401', async () => {
    const url = `/api/devices/${deviceId}/accumulators`;
    expect((await api(t.app, null, 'PUT', url, [])).statusCode).toBe(401);
    const arr = await api(t.app, t.admin, 'PUT', url, []);
    expect(arr.statusCode).toBe(400);
    expect(arr.body).toContain('expected a JSON object body');
    const neg = await api(t.app, t.admin, 'PUT', url, { deviceId, totalDistance: -1 });
    expect(neg.statusCode).toBe(400);
    expect(neg.body).toContain('totalDistance');
    // parsed and reached the handler: the device has no position yet
    const none = await api(t.app, t.admin, 'PUT', url, { deviceId, totalDistance: 5 });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Device has no position');
  });

  it('notificators: announcement=true (only) leaves out web and command; types and tests need a caller', async () => {
    const types = async (q: string) =>
      expectStatus<Array<{ type: string }>>(
        await api(t.app, t.admin, 'GET', `/api/notifications/notificators${q}`),
        200,
      ).map((n) => n.type);
    expect(await types('')).toContain('web');
    expect(await types('?announcement=yes')).toContain('web');
    const announcement = await types('?announcement=true');
    expect(announcement).not.toContain('web');
    expect(announcement).not.toContain('command');
    expect((await api(t.app, null, 'GET', '/api/notifications/types')).statusCode).toBe(401);
    expect((await api(t.app, null, 'POST', '/api/notifications/test/web', {})).statusCode).toBe(401);
    expect((await api(t.app, t.admin, 'POST', '/api/notifications/test/web', [])).statusCode).toBe(204);
  });

  it('report runs: the query parsed at the edge, the same 400 texts, and 401 before them', async () => {
    const span = 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z';
    const reversed = 'from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z';
    for (const type of ['route', 'events', 'trips', 'stops', 'summary', 'geofences', 'combined']) {
      const url = `/api/reports/${type}?deviceId=${deviceId}`;
      expect((await api(t.app, null, 'GET', `${url}&from=x`)).statusCode, type).toBe(401);
      const bad = await api(t.app, t.admin, 'GET', `${url}&from=x&to=y`);
      expect(bad.statusCode, type).toBe(400);
      expect(bad.body, type).toContain('from');
      const rev = await api(t.app, t.admin, 'GET', `${url}&${reversed}`);
      expect(rev.statusCode, type).toBe(400);
      expect(rev.body, type).toContain('from must not be after to');
      const ok = await api(t.app, t.admin, 'GET', `${url}&${span}`);
      expect(ok.statusCode, `${type}: ${ok.body.slice(0, 200)}`).toBe(200);
      const rows = ok.json<unknown[]>();
      expect(rows.length, type).toBe(type === 'combined' ? 1 : 0); // combined: one entry per device
    }
    const daily = await api(
      t.app,
      t.admin,
      'GET',
      `/api/reports/summary?deviceId=${deviceId}&${span}&daily=yes`,
    );
    expect(daily.statusCode).toBe(400);
    expect(daily.body).toContain('daily');
  });

  it('dashboard and scores: the query parsed at the edge, 401 before its 400', async () => {
    const ns = t.ctx.config.ns;
    const span = 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z';
    for (const path of ['dashboard', 'scores']) {
      expect((await api(t.app, null, 'GET', `/${ns}/${path}?from=x`)).statusCode, path).toBe(401);
      const bad = await api(t.app, t.admin, 'GET', `/${ns}/${path}?from=x&to=y`);
      expect(bad.statusCode, path).toBe(400);
      expect(bad.body, path).toContain('from');
      expect((await api(t.app, t.admin, 'GET', `/${ns}/${path}?${span}`)).statusCode, path).toBe(200);
    }
  });
});
