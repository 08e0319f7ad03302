// The tests' row helpers (support/testSql.ts) on PostgreSQL go to the pool, never to the synchronous handle
// (issue #30, session 36, H30t): (1) every helper, read or write, runs on the pool (PostgreSQL's store has no
// synchronous statement since session 38: a synchronous read of query.ts is refused); (2) a helper's
// read waiting on a lock (another connection holds `devices` ACCESS EXCLUSIVE in an open transaction) does not hold
// the server: /api/health answers first, then the read is answered.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { qb, row } from '../../src/db/repos/query.ts';
import { api, type TestApp } from '../helpers/index.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';
import { all, count, first, insert, one, remove, select, update } from '../support/testSql.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

describe("the tests' row helpers on PostgreSQL", () => {
  it('read and write on the pool: no statement through the synchronous handle', async () => {
    const db = t.ctx.store.sql;
    const id = await insert(db, 'devices', { name: 'Helper pool', uniqueId: 'helper-pool' });
    expect(id).toBeGreaterThan(0);
    expect(await insert(db, 'devices', { name: 'Again', uniqueId: 'helper-pool' }, { ignore: true })).toBe(0);
    await insert(db, 'links', { ownerType: 'user', ownerId: 1, propertyType: 'device', propertyId: id });
    expect(await update(db, 'devices', { name: 'Helper pool 2' }, { id })).toBe(1);
    expect(await first(db, 'devices', { id }, { columns: ['name'] })).toEqual({ name: 'Helper pool 2' });
    expect(await select(db, 'devices', { uniqueId: ['helper-pool', 'none'] }, { columns: ['id'] })).toEqual([
      { id },
    ]);
    expect(await count(db, 'links', { propertyType: 'device', propertyId: id })).toBe(1);
    const found = await one(db, (q) => q.selectFrom('devices').select('uniqueId').where('id', '=', id));
    expect(found).toEqual({ uniqueId: 'helper-pool' });
    expect(await all(db, (q) => q.selectFrom('devices').select('id').where('id', '=', id))).toEqual([{ id }]);
    expect(await remove(db, 'links', { propertyId: id })).toBe(1);
    expect(await remove(db, 'devices', { id })).toBe(1);
    expect(await count(db, 'devices', { id })).toBe(0);
    // a synchronous read of query.ts is refused: nothing above took that path
    expect(() => row(db, qb(db).selectFrom('devices').select('id').where('id', '=', id))).toThrow(
      /no synchronous statements/,
    );
  });

  it("a helper's read waiting on a lock lets /api/health answer first, then is answered", async () => {
    const db = t.ctx.store.sql;
    const id = await insert(db, 'devices', { name: 'Locked helper', uniqueId: 'helper-locked' });
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('LOCK TABLE devices IN ACCESS EXCLUSIVE MODE');
      const order: string[] = [];
      const read = first(db, 'devices', { id }, { columns: ['name'] }).then((r) => {
        order.push('read');
        return r;
      });
      await untilLockWaited(watcher, 'relation');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      expect(await read).toEqual({ name: 'Locked helper' });
      expect(order).toEqual(['health', 'read']);
    } finally {
      await end();
    }
  });
});
