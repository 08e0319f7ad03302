// An asynchronous write waiting on a PostgreSQL row lock does not hold the server (issue #30, session 31;
// db/repos/query.ts writeAsync on db/pool.ts's write client): another connection holds the device's row (SELECT … FOR
// UPDATE in an open transaction), the write waits in the database, and /api/health is answered meanwhile; once the
// lock is released the write is stored. Before, a write went through the synchronous worker (retired in session 38),
// which blocks the main thread until PostgreSQL answers. The order is certain without any timing: the test sees the
// write waiting in pg_locks before it asks for health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qb, rowAsync, writeAsync } from '../../src/db/repos/query.ts';
import { api, createDevice, type TestApp } from '../helpers/app.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

describe('an asynchronous write waiting on a row lock', () => {
  it('lets /api/health answer first, then is stored', async () => {
    const device = await createDevice(t, { name: 'Locked row' });
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [device.id]);
      const db = t.ctx.store.sql;
      const order: string[] = [];
      const write = writeAsync(
        db,
        qb(db).updateTable('devices').set({ name: 'Renamed' }).where('id', '=', device.id),
      ).then((n) => {
        order.push('write');
        return n;
      });
      await untilLockWaited(watcher, 'transactionid');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      expect(await write).toBe(1);
      expect(order).toEqual(['health', 'write']);
      expect(
        await rowAsync(db, qb(db).selectFrom('devices').select('name').where('id', '=', device.id)),
      ).toEqual({ name: 'Renamed' });
    } finally {
      await end();
    }
  });
});
