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

describe('helpers smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('creates a user and a device and links them', async () => {
    const u = await createUser(t);
    const d = await createDevice(t);
    await link(t, { userId: u.id, deviceId: d.id });
    const list = expectStatus<Array<{ id: number; status: string }>>(
      await api(t.app, u.cookie, 'GET', '/api/devices'),
      200,
    );
    expect(list.map((x) => x.id)).toEqual([d.id]);
    expect(list[0].status).toBe('offline');
  });
});
