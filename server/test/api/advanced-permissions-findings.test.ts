// Review finding of issue #10 (part A): the server trusted the web app to hide actions. Each sentence of the finding
// is replayed against the API and must now be refused with 403 and leave the store unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, NO_PERMISSIONS } from '@rastro/domain';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { count as countRows, type Table, type Where } from '../support/testSql.ts';

const count = async (t: TestApp, table: Table, where: Where = {}) =>
  await countRows(t.ctx.store.sql, table, where);
const SPAN = 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z';

describe('finding: advanced permissions were only enforced by the web app', () => {
  let t: TestApp;
  let sub: { id: number; cookie: string };
  let driver: { id: number; cookie: string };
  let device: { id: number; name: string } & Record<string, unknown>;
  let vehicle: { id: number } & Record<string, unknown>;

  beforeAll(async () => {
    t = await makeTestApp();
    const server = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    const attributes = { ...(server.attributes as object), 'rastro.enableAdvancedPerms': true };
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);

    // a sub-user whose permission string is 32 zeros
    const s = await createUser(t, { attributes: { 'rastro.advancedPerms': NO_PERMISSIONS } });
    sub = { id: s.id, cookie: s.cookie };
    device = await createDevice(t, { name: 'Sub car' });
    await link(t, { userId: sub.id, deviceId: device.id });

    // the demo QR driver account and its vehicle
    const d = await createUser(t, {
      email: 'motorista@rastro.demo',
      attributes: { 'rastro.isQrDriverId': true },
    });
    driver = { id: d.id, cookie: d.cookie };
    vehicle = await createDevice(t, { name: 'Driver truck' });
    await link(t, { userId: driver.id, deviceId: vehicle.id });
  });
  afterAll(async () => t.close());

  const queued = async (deviceId: number) => await count(t, 'queued_commands', { deviceId });

  it('finding: a sub-user with 32 zeros can no longer send engineStop', async () => {
    const res = await api(t.app, sub.cookie, 'POST', '/api/commands/send', {
      id: 0,
      deviceId: device.id,
      type: 'engineStop',
      attributes: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^SecurityException: Permissão negada: bloquear/);
    expect(await queued(device.id)).toBe(0);
  });

  it('finding: a sub-user with 32 zeros can no longer rename a device', async () => {
    const res = await api(t.app, sub.cookie, 'PUT', `/api/devices/${device.id}`, {
      ...device,
      name: 'Renamed',
    });
    expect(res.statusCode).toBe(403);
    expect(await count(t, 'devices', { id: device.id, name: 'Sub car' })).toBe(1);
  });

  it('finding: a sub-user with 32 zeros can no longer create a geofence', async () => {
    const before = await count(t, 'geofences');
    const res = await api(t.app, sub.cookie, 'POST', '/api/geofences', {
      name: 'Depot',
      area: 'CIRCLE (-23.55 -46.63, 300)',
    });
    expect(res.statusCode).toBe(403);
    expect(await count(t, 'geofences')).toBe(before);
  });

  it('finding: a sub-user with 32 zeros can no longer run reports', async () => {
    for (const kind of ['route', 'summary', 'trips', 'stops', 'events']) {
      const res = await api(t.app, sub.cookie, 'GET', `/api/reports/${kind}?deviceId=${device.id}&${SPAN}`);
      expect(res.statusCode, kind).toBe(403);
    }
  });

  it('finding: the QR driver can no longer delete its vehicle (DELETE /api/devices/:id), which stays', async () => {
    const res = await api(t.app, driver.cookie, 'DELETE', `/api/devices/${vehicle.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(`SecurityException: ${formatMessage('denied.qrDriver', 'pt-BR')}`);
    expectStatus(await api(t.app, t.admin, 'GET', `/api/devices/${vehicle.id}`), 200);
  });

  it('finding: the QR driver can no longer send engineStop', async () => {
    const res = await api(t.app, driver.cookie, 'POST', '/api/commands/send', {
      id: 0,
      deviceId: vehicle.id,
      type: 'engineStop',
      attributes: {},
    });
    expect(res.statusCode).toBe(403);
    expect(await queued(vehicle.id)).toBe(0);
  });
});
