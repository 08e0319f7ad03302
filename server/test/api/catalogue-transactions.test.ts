// The catalogue's create and delete, a user's delete and the permissions' writes are each one asynchronous
// transaction (issue #30, session 32: db/repos/query.ts inTransaction; on PostgreSQL the write client, off the
// synchronous worker): a statement refused half way — by a trigger the test installs on one table — leaves nothing of
// the request written, on SQLite and on PostgreSQL; once the trigger is gone the same request is stored whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/app.ts';
import { refuseStatements } from '../support/refuseTrigger.ts';
import { count, first } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Makes every `op` on `table` fail until the returned function is called (test-support's trigger). */
const refuse = (table: string, op: 'INSERT' | 'UPDATE' | 'DELETE') => refuseStatements(t, table, op);

const db = () => t.ctx.store.sql;
const linksNaming = async (type: string, id: number) =>
  (await count(db(), 'links', { propertyType: type, propertyId: id })) +
  (await count(db(), 'links', { ownerType: type, ownerId: id }));

describe('a write refused half way stores nothing', () => {
  it('POST /api/devices: the creator link refused, no device either', async () => {
    const undo = await refuse('links', 'INSERT');
    try {
      const res = await api(t.app, t.admin, 'POST', '/api/devices', { name: 'Half', uniqueId: 'half-1' });
      expect(res.statusCode).toBe(500);
      expect(await count(db(), 'devices', { uniqueId: 'half-1' })).toBe(0);
    } finally {
      await undo();
    }
    const created = await createDevice(t, { uniqueId: 'half-1' });
    expect(
      await count(db(), 'links', { ownerType: 'user', propertyType: 'device', propertyId: created.id }),
    ).toBe(1);
  });

  it('DELETE /api/groups/{id}: its devices’ reference refused after the row and its links went, all kept', async () => {
    const group = await createObject(t, 'groups', { name: 'Kept group' });
    const device = await createDevice(t, { groupId: group.id });
    const undo = await refuse('devices', 'UPDATE');
    try {
      const res = await api(t.app, t.admin, 'DELETE', `/api/groups/${group.id}`);
      expect(res.statusCode).toBe(500);
      expect(await count(db(), 'groups', { id: group.id })).toBe(1);
      expect(await linksNaming('group', group.id)).toBe(1); // the creator's
      expect(await first(db(), 'devices', { id: device.id })).toMatchObject({ groupId: group.id });
    } finally {
      await undo();
    }
    expect((await api(t.app, t.admin, 'DELETE', `/api/groups/${group.id}`)).statusCode).toBe(204);
    expect(await count(db(), 'groups', { id: group.id })).toBe(0);
    expect(await linksNaming('group', group.id)).toBe(0);
    expect(await first(db(), 'devices', { id: device.id })).toMatchObject({ groupId: 0 });
  });

  it('DELETE /api/users/{id}: its tokens’ revocation refused last, the user, links and sessions kept', async () => {
    const user = await createUser(t);
    const device = await createDevice(t);
    await link(t, { userId: user.id, deviceId: device.id });
    expectStatus(await api(t.app, user.cookie, 'POST', '/api/session/token'), 200); // a token to revoke
    const undo = await refuse('tokens', 'UPDATE');
    try {
      const res = await api(t.app, t.admin, 'DELETE', `/api/users/${user.id}`);
      expect(res.statusCode).toBe(500);
      expect(await count(db(), 'users', { id: user.id })).toBe(1);
      expect(await linksNaming('user', user.id)).toBe(1);
      expectStatus(await api(t.app, user.cookie, 'GET', '/api/session'), 200); // still signed in
    } finally {
      await undo();
    }
    expect((await api(t.app, t.admin, 'DELETE', `/api/users/${user.id}`)).statusCode).toBe(204);
    expect(await count(db(), 'users', { id: user.id })).toBe(0);
    expect(await linksNaming('user', user.id)).toBe(0);
    expect(await count(db(), 'sessions', { userId: user.id })).toBe(0);
    expect(await count(db(), 'tokens', { userId: user.id, revoked: 0 })).toBe(0);
    expect((await api(t.app, user.cookie, 'GET', '/api/session')).statusCode).toBe(404);
  });

  it('POST /api/permissions/bulk: the first link’s action refused, neither link stored', async () => {
    const user = await createUser(t);
    const [a, b] = [await createDevice(t), await createDevice(t)];
    const body = [
      { userId: user.id, deviceId: a.id },
      { userId: user.id, deviceId: b.id },
    ];
    const undo = await refuse('actions', 'INSERT');
    try {
      const res = await api(t.app, t.admin, 'POST', '/api/permissions/bulk', body);
      expect(res.statusCode).toBe(500);
      expect(await count(db(), 'links', { ownerType: 'user', ownerId: user.id })).toBe(0);
    } finally {
      await undo();
    }
    expect((await api(t.app, t.admin, 'POST', '/api/permissions/bulk', body)).statusCode).toBe(204);
    expect(await count(db(), 'links', { ownerType: 'user', ownerId: user.id, propertyType: 'device' })).toBe(
      2,
    );
    expect(await count(db(), 'actions', { actionType: 'link', objectType: 'user', objectId: user.id })).toBe(
      2,
    );
    const undoDelete = await refuse('actions', 'INSERT');
    try {
      const res = await api(t.app, t.admin, 'DELETE', '/api/permissions/bulk', body);
      expect(res.statusCode).toBe(500);
      expect(
        await count(db(), 'links', { ownerType: 'user', ownerId: user.id, propertyType: 'device' }),
      ).toBe(2);
    } finally {
      await undoDelete();
    }
  });
});
