// What real Traccar clients send and expect (issue #12): numbers and ids as JSON strings, booleans as strings,
// only the notification channels that can deliver, the Traccar API version, and CORS for configured origins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebOrigins } from '../../src/config.ts';
import { TRACCAR_API_VERSION, VERSION } from '../../src/traccar/server.ts';
import {
  api,
  createDevice,
  createObject,
  expectStatus,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';

const SQUARE = 'POLYGON ((-23.5 -46.6, -23.5 -46.5, -23.6 -46.5, -23.6 -46.6, -23.5 -46.6))';

describe('ids and numbers sent as strings (Jackson coercion)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());

  it('finding: POST /api/permissions accepts {"deviceId":"4","geofenceId":4}', async () => {
    const device = await createDevice(t);
    const geofence = await createObject(t, 'geofences', { name: 'Yard', area: SQUARE });
    const res = await api(t.app, t.admin, 'POST', '/api/permissions', {
      deviceId: String(device.id),
      geofenceId: geofence.id,
    });
    expectStatus(res, 204);
    const linked = expectStatus<Array<{ id: number }>>(
      await api(t.app, t.admin, 'GET', `/api/geofences?deviceId=${device.id}`),
      200,
    );
    expect(linked.map((g) => g.id)).toEqual([geofence.id]);
    // and unlinks the same way
    expectStatus(
      await api(t.app, t.admin, 'DELETE', '/api/permissions', {
        deviceId: String(device.id),
        geofenceId: String(geofence.id),
      }),
      204,
    );
  });

  it('still refuses ids that are not decimal integers', async () => {
    for (const bad of ['4a', '', '-3', '1.5', 'null']) {
      const res = await api(t.app, t.admin, 'POST', '/api/permissions', { deviceId: bad, geofenceId: 1 });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('reads entity ids, numbers and booleans given as strings', async () => {
    const group = await createObject(t, 'groups', { name: 'Fleet A' });
    const device = await createDevice(t, { groupId: String(group.id), disabled: 'false' });
    expect(device.groupId).toBe(group.id);
    expect(device.disabled).toBe(false);
    const updated = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'PUT', `/api/devices/${device.id}`, {
        ...device,
        id: String(device.id),
        disabled: 'TRUE',
      }),
      200,
    );
    expect(updated.disabled).toBe(true);
    const maintenance = await createObject(t, 'maintenance', {
      name: 'Oil',
      type: 'totalDistance',
      start: '1000.5',
      period: '5000',
    });
    expect(maintenance.start).toBe(1000.5);
    expect(maintenance.period).toBe(5000);
  });

  it('refuses a number field given as non-numeric text with 400', async () => {
    const res = await api(t.app, t.admin, 'POST', '/api/maintenance', {
      name: 'Oil',
      type: 'totalDistance',
      start: 'soon',
      period: 5000,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/notifications/notificators lists only channels that can deliver', () => {
  it('finding: with no adapter configured, only web and command', async () => {
    const t = await makeTestApp();
    try {
      const list = expectStatus<Array<{ type: string }>>(
        await api(t.app, t.admin, 'GET', '/api/notifications/notificators'),
        200,
      );
      expect(list.map((n) => n.type).sort()).toEqual(['command', 'web']);
      const announcement = expectStatus<Array<{ type: string }>>(
        await api(t.app, t.admin, 'GET', '/api/notifications/notificators?announcement=true'),
        200,
      );
      expect(announcement).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('lists mail and telegram once their settings are given', async () => {
    const keys = ['SMTP_HOST', 'SMTP_FROM', 'TELEGRAM_BOT_TOKEN'] as const;
    const saved = keys.map((k) => process.env[k]);
    process.env.SMTP_HOST = '127.0.0.1';
    process.env.SMTP_FROM = 'rastro@example.com';
    process.env.TELEGRAM_BOT_TOKEN = 'bot-token';
    const t = await makeTestApp();
    try {
      const list = expectStatus<Array<{ type: string }>>(
        await api(t.app, t.admin, 'GET', '/api/notifications/notificators'),
        200,
      );
      expect(list.map((n) => n.type).sort()).toEqual(['command', 'mail', 'telegram', 'web']);
    } finally {
      keys.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
      await t.close();
    }
  });
});

describe('GET /api/server version', () => {
  it('finding: reports the Traccar API version the embedded core implements (6.x), not Rastro 0.1.0', async () => {
    const t = await makeTestApp();
    try {
      const server = expectStatus<{ version: string }>(await api(t.app, null, 'GET', '/api/server'), 200);
      expect(server.version).toBe(TRACCAR_API_VERSION);
      expect(Number(server.version.split('.')[0])).toBeGreaterThanOrEqual(6);
      const health = expectStatus<{ version: string }>(
        await api(t.app, t.admin, 'GET', '/api/server-health'),
        200,
      );
      expect(health.version).toBe(VERSION);
    } finally {
      await t.close();
    }
  });
});

describe('CORS with WEB_ORIGIN (Traccar web.origin)', () => {
  const preflight = (t: TestApp, origin: string, url = '/api/devices') =>
    t.app.inject({ method: 'OPTIONS', url, headers: { origin, host: 'rastro.example:8082' } });

  it('finding: a listed origin gets the allow-origin header on /api and /{ns}; others do not', async () => {
    const t = await makeTestApp({
      webOrigins: parseWebOrigins('https://dash.example.com, http://10.0.0.5:3000'),
    });
    try {
      const ok = await preflight(t, 'https://dash.example.com');
      expect(ok.statusCode).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('https://dash.example.com');
      expect(ok.headers['access-control-allow-credentials']).toBe('true');
      expect((await preflight(t, 'http://10.0.0.5:3000')).headers['access-control-allow-origin']).toBe(
        'http://10.0.0.5:3000',
      );
      const ns = await preflight(t, 'https://dash.example.com', `/${t.ctx.config.ns}/invoices`);
      expect(ns.statusCode).toBe(204);
      expect(ns.headers['access-control-allow-origin']).toBe('https://dash.example.com');
      expect((await preflight(t, 'https://evil.example.com')).headers['access-control-allow-origin']).toBe(
        undefined,
      );
      // the app's own host is always allowed
      expect((await preflight(t, 'http://rastro.example:8082')).headers['access-control-allow-origin']).toBe(
        'http://rastro.example:8082',
      );
    } finally {
      await t.close();
    }
  });

  it('`*` allows any origin', async () => {
    const t = await makeTestApp({ webOrigins: parseWebOrigins('*') });
    try {
      expect((await preflight(t, 'https://any.example')).headers['access-control-allow-origin']).toBe(
        'https://any.example',
      );
    } finally {
      await t.close();
    }
  });

  it('WEB_ORIGIN is parsed and a malformed entry stops the start with a clear message', () => {
    expect(parseWebOrigins(undefined)).toEqual([]);
    expect(parseWebOrigins('https://A.example.com/ ,http://b:81')).toEqual([
      'https://a.example.com',
      'http://b:81',
    ]);
    expect(parseWebOrigins('https://a.example.com,*')).toEqual(['*']);
    expect(() => parseWebOrigins('not an origin')).toThrow(/WEB_ORIGIN/);
  });
});
