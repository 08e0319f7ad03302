import { afterEach, describe, expect, it } from 'vitest';
import { api, createDevice, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

// SPEC §5 device-limit check, enforced by the server too: the licence cap (RASTRO_DEVICE_LIMIT, sent as the
// devicelimit header) and the server attribute {ns}.deviceLimit bind administrators as well; 0 means no cap.
describe('server-wide device caps', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('the licence cap of 2 refuses the third device, even for an administrator', async () => {
    t = await makeTestApp({ deviceLimit: 2 });
    await createDevice(t);
    await createDevice(t);
    const res = await api(t.app, t.admin, 'POST', '/api/devices', { name: 'third', uniqueId: 'third-1' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Device limit reached');
    const list = expectStatus<unknown[]>(await api(t.app, t.admin, 'GET', '/api/devices?all=true'), 200);
    expect(list).toHaveLength(2);
  });

  it('the server attribute rastro.deviceLimit = 1 refuses the second device; 0 is no cap', async () => {
    t = await makeTestApp({ deviceLimit: 0 });
    const server = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes: { 'rastro.deviceLimit': 1 } }),
      200,
    );
    await createDevice(t);
    const res = await api(t.app, t.admin, 'POST', '/api/devices', { name: 'second', uniqueId: 'second-1' });
    expect(res.body).toBe('SecurityException: Device limit reached');
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes: { 'rastro.deviceLimit': 0 } }),
      200,
    );
    await createDevice(t);
  });
});
