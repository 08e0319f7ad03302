// The live cache after a device's own write (session 46, live/cache.ts invalidateDevices): a device created or edited
// through the API is read again alone, its row and the links naming it, not the whole cache (at 10,000 devices the
// whole read held each creation ~100 ms). What it holds then is what a whole read gives: the device, its unique id,
// its links, who sees it through a user or a group link. Proof that nothing else was read: a user's name changed in
// the store behind the cache's back stays as it was until a whole read. Runs on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveCache } from '../../src/live/cache.ts';
import { getLive } from '../../src/live/ingest.ts';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  type CreatedUser,
  type TestApp,
  makeTestApp,
} from '../helpers/index.ts';
import { update } from '../support/testSql.ts';

let t: TestApp;
let owner: CreatedUser;
let northUser: CreatedUser;
let southUser: CreatedUser;
let north: number;
let south: number;
let fence: number;
let cache: LiveCache;

beforeAll(async () => {
  t = await makeTestApp();
  cache = getLive(t.ctx).cache;
  owner = await createUser(t);
  northUser = await createUser(t);
  southUser = await createUser(t);
  north = (await createObject(t, 'groups', { name: 'North' })).id;
  south = (await createObject(t, 'groups', { name: 'South' })).id;
  await link(t, { userId: northUser.id, groupId: north });
  await link(t, { userId: southUser.id, groupId: south });
  await link(t, { userId: owner.id, groupId: north }); // the owner may put its devices in North
  fence = (await createObject(t, 'geofences', { name: 'Yard', area: 'CIRCLE (-23.5 -46.6, 500)' })).id;
});
afterAll(async () => {
  await t.close();
});

const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

/** What the cache holds of these devices and users, in an order that does not depend on how it was read. */
function held(devices: number[], users: number[]) {
  return {
    devices: devices.map((id) => [id, cache.device(id) ?? null, cache.deviceAttrs.get(id) ?? null]),
    uniqueIds: [...cache.byUniqueId].filter(([, id]) => devices.includes(id)).sort(),
    owners: devices.map((id) => [
      sorted(cache.owners('device', id, 'user')),
      sorted(cache.owners('device', id, 'group')),
    ]),
    fences: devices.map((id) => sorted(cache.linked('device', id, 'geofence'))),
    audience: devices.map((id) => sorted(cache.usersOf(id))),
    sight: users.map((id) => sorted(cache.devicesOf(id))),
    geofences: devices.map((id) => cache.deviceGeofences(id).map((g) => g.id)),
  };
}

/** A user's name changed in the store without telling the cache: seen only after a whole read. */
async function renameBehind(userId: number, name: string): Promise<void> {
  await update(t.ctx.store.sql, 'users', { name }, { id: userId });
}

/** The cache read whole again (as after any other write): what it then holds. */
async function wholeRead(devices: number[], users: number[]) {
  getLive(t.ctx).invalidate();
  await cache.freshAsync();
  return held(devices, users);
}

describe('the live cache after a device is written through the API', () => {
  it('a device created by a user: read alone, seen by its creator, the same as a whole read', async () => {
    await cache.freshAsync();
    await renameBehind(northUser.id, 'Renamed behind the cache');
    const before = cache.users.get(northUser.id)?.name;
    const device = await createDevice(t, { groupId: north }, owner.cookie);
    await cache.freshAsync(); // already read again as the request answered (its device went to the sockets)
    expect(cache.stale).toBe(false);
    expect(cache.users.get(northUser.id)?.name).toBe(before); // nothing but the device was read
    expect(cache.device(device.id)?.uniqueId).toBe(device.uniqueId);
    expect(cache.byUniqueId.get(device.uniqueId)).toBe(device.id);
    expect(cache.usersOf(device.id).has(owner.id)).toBe(true); // its creator's link
    expect(cache.usersOf(device.id).has(northUser.id)).toBe(true); // through North
    expect(cache.devicesOf(southUser.id).has(device.id)).toBe(false);
    const users = [owner.id, northUser.id, southUser.id];
    const partial = held([device.id], users);
    expect(await wholeRead([device.id], users)).toEqual(partial);
    expect(cache.users.get(northUser.id)?.name).toBe('Renamed behind the cache');
  });

  it('a device moved to another group and given a new unique id: who sees it and its links follow', async () => {
    const device = await createDevice(t, { groupId: north, name: 'Truck 7' });
    await link(t, { deviceId: device.id, geofenceId: fence });
    await link(t, { userId: owner.id, deviceId: device.id });
    await cache.freshAsync();
    expect(cache.deviceGeofences(device.id).map((g) => g.id)).toEqual([fence]); // remembered per device
    expect(cache.devicesOf(northUser.id).has(device.id)).toBe(true);
    await renameBehind(southUser.id, 'South renamed behind');
    const southName = cache.users.get(southUser.id)?.name;
    const uniqueId = `moved-${device.uniqueId}`;
    const moved = { ...device, groupId: south, uniqueId, attributes: { speedLimit: 50 } };
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${device.id}`, moved), 200);
    await cache.freshAsync();
    expect(cache.users.get(southUser.id)?.name).toBe(southName);
    expect(cache.byUniqueId.get(uniqueId)).toBe(device.id);
    expect(cache.byUniqueId.has(device.uniqueId)).toBe(false);
    expect(cache.deviceAttrs.get(device.id)).toEqual({ speedLimit: 50 });
    expect(cache.devicesOf(northUser.id).has(device.id)).toBe(false);
    expect(cache.devicesOf(southUser.id).has(device.id)).toBe(true);
    expect(cache.devicesOf(owner.id).has(device.id)).toBe(true);
    expect(cache.deviceGeofences(device.id).map((g) => g.id)).toEqual([fence]);
    const users = [owner.id, northUser.id, southUser.id];
    const partial = held([device.id], users);
    expect(await wholeRead([device.id], users)).toEqual(partial);
  });

  it('on SQLite the synchronous read (the batch fast path) reads the device alone too', async () => {
    if (t.ctx.store.sql.dialect !== 'sqlite') return; // PostgreSQL has no synchronous read (liveSnapshot refuses it)
    await cache.freshAsync();
    await renameBehind(owner.id, 'Owner renamed behind');
    const name = cache.users.get(owner.id)?.name;
    const device = await createDevice(t, {}, owner.cookie);
    cache.fresh();
    expect(cache.stale).toBe(false);
    expect(cache.users.get(owner.id)?.name).toBe(name);
    expect(cache.devicesOf(owner.id).has(device.id)).toBe(true);
  });

  it('anything else, a device deleted among it, reads the whole cache', async () => {
    const device = await createDevice(t, { groupId: north });
    await cache.freshAsync();
    await renameBehind(northUser.id, 'North renamed again');
    expectStatus(await api(t.app, t.admin, 'DELETE', `/api/devices/${device.id}`), 204);
    await cache.freshAsync();
    expect(cache.users.get(northUser.id)?.name).toBe('North renamed again');
    expect(cache.device(device.id)).toBeUndefined();
    expect(cache.byUniqueId.has(device.uniqueId)).toBe(false);
    expect(cache.devicesOf(northUser.id).has(device.id)).toBe(false);
  });
});
