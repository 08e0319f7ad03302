// What the live cache reloads after (live/index.ts `writesLiveData`): a write through the API may change what the
// pipeline reads, signing in and out does not. Reloading after every login held a 10,000-device server for 170 ms
// just as the signed-in page asked for its code and data (issue #13).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createDevice,
  login,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { writesLiveData } from '../../src/live/index.ts';

let t: TestApp;
let deviceId: number;

beforeAll(async () => {
  t = await makeTestApp();
  deviceId = ((await createDevice(t, { name: 'Cache', uniqueId: 'cache-1' })) as { id: number }).id;
});
afterAll(() => t.close());

/** The cache's object for the device: a reload makes a new one. */
const cached = () => getLive(t.ctx).cache.fresh().devices.get(deviceId);

describe('live cache reloads (issue #13)', () => {
  it('is not reloaded by signing in, a token or signing out', async () => {
    const before = cached();
    expect(before).toBeDefined();
    const cookie = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/session/token',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'expiration=2099-01-01T00:00:00Z',
    });
    expect(token.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie } })).statusCode,
    ).toBe(204);
    expect(cached()).toBe(before);
  });

  it('is reloaded after a device is changed through the API', async () => {
    const before = cached()!;
    const list = await t.app.inject({ url: `/api/devices?id=${deviceId}`, headers: { cookie: t.admin } });
    const [device] = list.json<Array<Record<string, unknown>>>();
    const r = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${deviceId}`,
      headers: { cookie: t.admin, 'content-type': 'application/json' },
      payload: { ...device, name: 'Cache renamed' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(cached()).not.toBe(before);
    expect(cached()!.name).toBe('Cache renamed');
  });

  it('tells session paths from the rest', () => {
    expect(writesLiveData('/api/session')).toBe(false);
    expect(writesLiveData('/api/session?x=1')).toBe(false);
    expect(writesLiveData('/api/session/token')).toBe(false);
    expect(writesLiveData('/api/sessions')).toBe(true);
    expect(writesLiveData('/api/devices/1')).toBe(true);
    expect(writesLiveData('/api/permissions')).toBe(true);
    expect(writesLiveData('/rastro/anything')).toBe(false);
  });
});
