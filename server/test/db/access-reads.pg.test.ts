// The access rules on PostgreSQL read on the pool (issue #30, session 34, H30u; traccar/access.ts): (1) every
// visibility check and walk answers (PostgreSQL's store has no synchronous statement since session 38: a synchronous
// path would throw); (2) a visibility read waiting on a lock (another connection holds `links` ACCESS EXCLUSIVE in an
// open transaction) does not hold the server: /api/health answers first, then the request that waited is answered.
// Before session 34, the read went through a synchronous worker that blocked the main thread until PostgreSQL
// answered.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  canAccessDevice,
  canSee,
  checkUserAccess,
  invalidateAccess,
  isManagerOf,
  managedUserIds,
  objectExists,
  usersWhoSeeDevice,
  visibleDeviceIds,
  visibleIds,
} from '../../src/traccar/access.ts';
import { findUserAsync } from '../../src/traccar/auth.ts';
import { api, createDevice, createUser, link, type TestApp } from '../helpers/index.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

describe('the access rules on PostgreSQL', () => {
  it('check and walk on the pool: no statement through the synchronous handle', async () => {
    const manager = await createUser(t, { userLimit: 5 });
    const sub = await createUser(t);
    await link(t, { userId: manager.id, managedUserId: sub.id });
    const group = (await api(t.app, t.admin, 'POST', '/api/groups', { name: 'Pool group' }).then((r) =>
      r.json(),
    )) as { id: number };
    const device = await createDevice(t, { groupId: group.id });
    await link(t, { userId: manager.id, groupId: group.id });
    const user = (await findUserAsync(t.ctx, manager.id))!;
    invalidateAccess(t.ctx);
    expect(await canAccessDevice(t.ctx, user, device.id)).toBe(true);
    expect(await usersWhoSeeDevice(t.ctx, device.id)).toContain(manager.id);
    expect(await visibleDeviceIds(t.ctx, user)).toContain(device.id);
    expect(await visibleIds(t.ctx, manager.id, 'group')).toContain(group.id);
    expect(await visibleIds(t.ctx, manager.id, 'geofence')).toEqual([]);
    expect(await canSee(t.ctx, user, 'group', group.id)).toBe(true);
    expect(await isManagerOf(t.ctx, manager.id, sub.id)).toBe(true);
    expect(await managedUserIds(t.ctx, manager.id)).toEqual([sub.id]);
    await checkUserAccess(t.ctx, user, sub.id);
    expect(await objectExists(t.ctx, 'device', device.id)).toBe(true);
    expect(await objectExists(t.ctx, 'device', device.id + 1_000_000)).toBe(false);
  });

  it('a visibility read waiting on a lock lets /api/health answer first, then is answered', async () => {
    const u = await createUser(t);
    const device = await createDevice(t, { name: 'Locked links' });
    await link(t, { userId: u.id, deviceId: device.id });
    invalidateAccess(t.ctx); // the check reads the device's audience from the store
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('LOCK TABLE links IN ACCESS EXCLUSIVE MODE');
      const order: string[] = [];
      const read = api(t.app, u.cookie, 'GET', `/api/devices/${device.id}`).then((r) => {
        order.push('device');
        return r;
      });
      await untilLockWaited(watcher, 'relation');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      const answered = await read;
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toMatchObject({ id: device.id, name: 'Locked links' });
      expect(order).toEqual(['health', 'device']);
    } finally {
      await end();
    }
  });
});
