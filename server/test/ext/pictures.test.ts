// Device and driver pictures need a session and visibility (issue #10): a photo is personal data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('uploaded pictures', () => {
  let t: TestApp;
  let deviceId: number;
  let driverId: number;
  beforeAll(async () => {
    t = await makeTestApp();
    deviceId = (await createDevice(t)).id;
    driverId = (await createObject(t, 'drivers', { name: 'Ana', uniqueId: 'drv-ana' })).id;
    mkdirSync(join(t.dir, 'images', 'drivers'), { recursive: true });
    writeFileSync(join(t.dir, 'images', `${deviceId}.png`), 'device-png');
    writeFileSync(join(t.dir, 'images', 'drivers', `${driverId}.png`), 'driver-png');
  });
  afterAll(() => t.close());

  const get = (cookie: string | null, url: string) =>
    api(t.app, cookie, 'GET', `/rastro/assets/images/${url}`);

  it('need a session: anonymous callers get 401 and no bytes', async () => {
    for (const url of [`${deviceId}.png`, `drivers/${driverId}.png`]) {
      const res = await get(null, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.body).not.toContain('png');
    }
  });

  it('are served to a user who sees the device or driver, privately cached', async () => {
    const u = await createUser(t);
    await link(t, { userId: u.id, deviceId });
    await link(t, { userId: u.id, driverId });
    const device = await get(u.cookie, `${deviceId}.png`);
    expect(device.statusCode).toBe(200);
    expect(device.body).toBe('device-png');
    expect(device.headers['cache-control']).toBe('private, max-age=60');
    expect((await get(u.cookie, `drivers/${driverId}.png`)).body).toBe('driver-png');
    expect((await get(t.admin, `${deviceId}.png`)).body).toBe('device-png');
  });

  it('are refused to a user who does not see the device or driver; missing files 404, bad names 400', async () => {
    const stranger = await createUser(t);
    expect((await get(stranger.cookie, `${deviceId}.png`)).statusCode).toBe(400);
    expect((await get(stranger.cookie, `drivers/${driverId}.png`)).statusCode).toBe(400);
    expect((await get(t.admin, '99999.png')).statusCode).toBe(400); // no such device: access denied first
    const other = await createDevice(t);
    expect((await get(t.admin, `${other.id}.png`)).statusCode).toBe(404);
    expect((await get(t.admin, 'x.png')).statusCode).toBe(400);
  });
});
