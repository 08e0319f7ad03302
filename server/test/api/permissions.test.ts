import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canAccessDevice,
  canSee,
  isManagerOf,
  usersWhoSeeDevice,
  visibleDeviceIds,
} from '../../src/traccar/access.ts';
import { findUserAsync } from '../../src/traccar/auth.ts';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  unlink,
  type TestApp,
} from '../helpers/index.ts';
import { count as countRows, type Where } from '../support/testSql.ts';

describe('permissions API (CONTRACT §3 Permission, §4, §6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  const count = async (where: Where) => await countRows(t.ctx.store.sql, 'links', where);

  it('POST and DELETE one link (204), emitting "permissions"', async () => {
    const u = await createUser(t);
    const d = await createDevice(t);
    let events = 0;
    const onPerm = () => events++;
    t.ctx.bus.on('permissions', onPerm);
    await link(t, { userId: u.id, deviceId: d.id });
    expect(await count({ ownerType: 'user', ownerId: u.id, propertyType: 'device', propertyId: d.id })).toBe(
      1,
    );
    await link(t, { userId: u.id, deviceId: d.id }); // idempotent
    await unlink(t, { userId: u.id, deviceId: d.id });
    expect(await count({ ownerType: 'user', ownerId: u.id, propertyType: 'device' })).toBe(0);
    t.ctx.bus.off('permissions', onPerm);
    expect(events).toBeGreaterThanOrEqual(3);
  });

  it('refuses malformed permission objects with 400', async () => {
    const u = await createUser(t);
    for (const body of [
      {},
      { userId: u.id },
      { userId: u.id, deviceId: 1, groupId: 1 },
      { userId: u.id, fooId: 1 },
      { deviceId: 1, userId: u.id },
      { userId: 'x', deviceId: 1 },
      { userId: u.id, deviceId: -3 },
      { groupId: 1, deviceId: 1 },
      [],
    ]) {
      const res = await api(t.app, t.admin, 'POST', '/api/permissions', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatch(/^IllegalArgumentException: /);
    }
    const missing = await api(t.app, t.admin, 'POST', '/api/permissions', { userId: u.id, deviceId: 999999 });
    expect(missing.body).toBe('IllegalArgumentException: Device 999999 not found');
  });

  it('bulk: same key pair required; links all', async () => {
    const u = await createUser(t);
    const d1 = await createDevice(t);
    const d2 = await createDevice(t);
    const g = await createObject(t, 'groups', { name: 'G' });
    const mixed = await api(t.app, t.admin, 'POST', '/api/permissions/bulk', [
      { userId: u.id, deviceId: d1.id },
      { userId: u.id, groupId: g.id },
    ]);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).toContain('same key pair');
    expect(await count({ ownerType: 'user', ownerId: u.id })).toBe(0);
    const ok = await api(t.app, t.admin, 'POST', '/api/permissions/bulk', [
      { userId: u.id, deviceId: d1.id },
      { userId: u.id, deviceId: d2.id },
    ]);
    expect(ok.statusCode).toBe(204);
    expect(await count({ ownerType: 'user', ownerId: u.id, propertyType: 'device' })).toBe(2);
    expect(
      (await api(t.app, t.admin, 'DELETE', '/api/permissions/bulk', [{ userId: u.id, deviceId: d1.id }]))
        .statusCode,
    ).toBe(204);
    expect(await count({ ownerType: 'user', ownerId: u.id, propertyType: 'device' })).toBe(1);
  });

  it('GET /api/permissions: admin only, exactly two params owner first, 0 = any', async () => {
    const u = await createUser(t);
    const d1 = await createDevice(t);
    const d2 = await createDevice(t);
    await link(t, { userId: u.id, deviceId: d1.id });
    await link(t, { userId: u.id, deviceId: d2.id });
    const list = expectStatus<Array<Record<string, number>>>(
      await api(t.app, t.admin, 'GET', `/api/permissions?userId=${u.id}&deviceId=0`),
      200,
    );
    expect(list).toEqual([
      { userId: u.id, deviceId: d1.id },
      { userId: u.id, deviceId: d2.id },
    ]);
    expect(Object.keys(list[0])).toEqual(['userId', 'deviceId']);
    const one = expectStatus<unknown[]>(
      await api(t.app, t.admin, 'GET', `/api/permissions?userId=0&deviceId=${d2.id}`),
      200,
    );
    // The creating admin (id 1) is linked too.
    expect(one).toEqual([
      { userId: 1, deviceId: d2.id },
      { userId: u.id, deviceId: d2.id },
    ]);
    expect((await api(t.app, t.admin, 'GET', `/api/permissions?userId=1`)).statusCode).toBe(400);
    expect((await api(t.app, u.cookie, 'GET', `/api/permissions?userId=${u.id}&deviceId=0`)).body).toBe(
      'SecurityException: Administrator access required',
    );
  });

  it('non-admins: both sides checked, managers link only their own objects to managed users', async () => {
    const manager = await createUser(t, { userLimit: 3 });
    const managed = await createUser(t, {}, manager.cookie);
    const stranger = await createUser(t);
    const mine = await createDevice(t, {}, manager.cookie);
    const foreign = await createDevice(t);
    await link(t, { userId: managed.id, deviceId: mine.id }, manager.cookie);
    const r1 = await api(t.app, manager.cookie, 'POST', '/api/permissions', {
      userId: managed.id,
      deviceId: foreign.id,
    });
    expect(r1.body).toBe('SecurityException: Device access denied');
    const r2 = await api(t.app, manager.cookie, 'POST', '/api/permissions', {
      userId: stranger.id,
      deviceId: mine.id,
    });
    expect(r2.body).toBe('SecurityException: User access denied');
    const r3 = await api(t.app, managed.cookie, 'POST', '/api/permissions', {
      userId: managed.id,
      managedUserId: stranger.id,
    });
    expect(r3.body).toBe('SecurityException: Manager access required');
    expect(await count({ ownerId: managed.id, propertyId: foreign.id, propertyType: 'device' })).toBe(0);
    expect(await count({ ownerId: stranger.id, propertyId: mine.id, propertyType: 'device' })).toBe(0);
    // A manager does not see managed users' devices automatically.
    const other = await createDevice(t);
    await link(t, { userId: managed.id, deviceId: other.id });
    const mList = expectStatus<Array<{ id: number }>>(
      await api(t.app, manager.cookie, 'GET', '/api/devices'),
      200,
    );
    expect(mList.map((d) => d.id)).toEqual([mine.id]);
    const viaUser = expectStatus<Array<{ id: number }>>(
      await api(t.app, manager.cookie, 'GET', `/api/devices?userId=${managed.id}`),
      200,
    );
    expect(viaUser.map((d) => d.id).sort()).toEqual([mine.id, other.id].sort((a, b) => a - b));
  });

  it('readonly users: link/unlink ⇒ "Operation restricted"', async () => {
    const u = await createUser(t, { readonly: true });
    const d = await createDevice(t);
    await link(t, { userId: u.id, deviceId: d.id });
    const g = await createObject(t, 'geofences', { name: 'g', area: 'CIRCLE (1 1, 5)' });
    await link(t, { userId: u.id, geofenceId: g.id });
    const res = await api(t.app, u.cookie, 'POST', '/api/permissions', { deviceId: d.id, geofenceId: g.id });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Operation restricted');
  });
});

describe('access module', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('visibleDeviceIds / usersWhoSeeDevice follow direct links and 3 levels of groups, and update on changes', async () => {
    const u = await createUser(t);
    const g1 = await createObject(t, 'groups', { name: 'L1' });
    const g2 = await createObject(t, 'groups', { name: 'L2', groupId: g1.id });
    const g3 = await createObject(t, 'groups', { name: 'L3', groupId: g2.id });
    const g4 = await createObject(t, 'groups', { name: 'L4', groupId: g3.id });
    const d2 = await createDevice(t, { groupId: g2.id });
    const d3 = await createDevice(t, { groupId: g3.id });
    const d4 = await createDevice(t, { groupId: g4.id });
    const loose = await createDevice(t);
    await link(t, { userId: u.id, groupId: g1.id });
    const user = (await findUserAsync(t.ctx, u.id))!;
    expect((await visibleDeviceIds(t.ctx, user)).sort()).toEqual([d2.id, d3.id].sort((a, b) => a - b));
    expect(await usersWhoSeeDevice(t.ctx, d3.id)).toContain(u.id);
    expect(await usersWhoSeeDevice(t.ctx, d4.id)).not.toContain(u.id);
    expect(await canAccessDevice(t.ctx, user, loose.id)).toBe(false);
    expect(await canSee(t.ctx, user, 'group', g3.id)).toBe(true);
    expect(await canSee(t.ctx, user, 'group', g4.id)).toBe(false);

    // Cached audience refreshes after a link change and after a device changes group.
    expect(await usersWhoSeeDevice(t.ctx, loose.id)).toEqual([1]);
    await link(t, { userId: u.id, deviceId: loose.id });
    expect((await usersWhoSeeDevice(t.ctx, loose.id)).sort()).toEqual([1, u.id].sort((a, b) => a - b));
    const d3json = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', `/api/devices/${d3.id}`),
      200,
    );
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${d3.id}`, { ...d3json, groupId: 0 }), 200);
    expect(await usersWhoSeeDevice(t.ctx, d3.id)).not.toContain(u.id);
    expect(await canAccessDevice(t.ctx, (await findUserAsync(t.ctx, 1))!, d3.id)).toBe(true);
  });

  it('isManagerOf follows managedUser links', async () => {
    const m = await createUser(t, { userLimit: 2 });
    const sub = await createUser(t, {}, m.cookie);
    expect(await isManagerOf(t.ctx, m.id, sub.id)).toBe(true);
    expect(await isManagerOf(t.ctx, sub.id, m.id)).toBe(false);
  });
});
