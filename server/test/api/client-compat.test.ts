// What real Traccar clients send and expect (issue #12): numbers and ids as JSON strings, booleans as strings,
// and only the notification channels that can deliver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
