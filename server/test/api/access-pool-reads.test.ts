// The access rules read on the store's read pool (issue #30, session 34, H30u): traccar/access.ts's visibility walks
// await their reads (fleet.ts, links.ts, catalog.ts, users.ts on the pool), none goes through the synchronous handle
// (the synchronous worker on PostgreSQL until session 38, the main thread waiting). A link written behind the API
// (straight in the store, as another process or connection does) is honoured on the next request: an object without a
// cache at once, a device once its cached audience is cleared (the 'permissions' event another process's change
// brings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qb, writeAsync } from '../../src/db/repos/query.ts';
import type { Link } from '../../src/db/repos/links.ts';
import { api, createDevice, createUser, makeTestApp, type TestApp } from '../helpers/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A link written straight in the store: no route, no 'permissions' event. */
async function linkBehind(link: Link): Promise<void> {
  const db = t.ctx.store.sql;
  await writeAsync(db, qb(db).insertInto('links').values(link));
}

describe('access rules after a link written behind the API', () => {
  it('a geofence linked behind the API is seen on the next request', async () => {
    const u = await createUser(t);
    const fence = (await api(t.app, t.admin, 'POST', '/api/geofences', {
      name: 'Behind',
      area: 'CIRCLE (-23.5 -46.6, 100)',
    }).then((r) => r.json())) as { id: number };
    const get = () => api(t.app, u.cookie, 'GET', `/api/geofences/${fence.id}`);
    expect((await get()).statusCode).toBe(400);
    await linkBehind({ ownerType: 'user', ownerId: u.id, propertyType: 'geofence', propertyId: fence.id });
    const seen = await get();
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ id: fence.id, name: 'Behind' });
  });

  it('a managed user linked behind the API: the manager reads it on the next request', async () => {
    const manager = await createUser(t, { userLimit: 5 });
    const sub = await createUser(t);
    const get = () => api(t.app, manager.cookie, 'GET', `/api/users/${sub.id}`);
    expect((await get()).statusCode).toBe(400);
    await linkBehind({
      ownerType: 'user',
      ownerId: manager.id,
      propertyType: 'managedUser',
      propertyId: sub.id,
    });
    expect((await get()).statusCode).toBe(200);
  });

  it('a device linked behind the API: seen once its cached audience is cleared, read again from the store', async () => {
    const u = await createUser(t);
    const device = await createDevice(t, { name: 'Behind device' });
    const get = () => api(t.app, u.cookie, 'GET', `/api/devices/${device.id}`);
    expect((await get()).statusCode).toBe(400); // its audience (without u) is now cached
    await linkBehind({ ownerType: 'user', ownerId: u.id, propertyType: 'device', propertyId: device.id });
    expect((await get()).statusCode).toBe(400); // the cache serves until told
    t.ctx.bus.emit('permissions'); // as another process's change arrives
    expect((await get()).statusCode).toBe(200);
  });
});
