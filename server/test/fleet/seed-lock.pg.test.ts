// The demo seed does not hold the server while PostgreSQL makes it wait (issue #30, session 34: live/simulator/
// seed.ts in one pooled transaction, db/repos/query.ts inTransaction): another connection holds the settings row
// (SELECT … FOR UPDATE in an open transaction), the seed's update of it waits in the database, and /api/health is
// answered meanwhile; once the lock is released the seed commits whole. Before, the seed ran through the synchronous
// worker (retired in session 38), which blocks the main thread until PostgreSQL answers. The order is certain without
// timing: the test sees the seed waiting in pg_locks before it asks for health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { seedDemo } from '../../src/live/simulator/seed.ts';
import { api, type TestApp } from '../helpers/app.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';
import { count } from '../support/testSql.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

describe('the demo seed waiting on a row lock', () => {
  it('lets /api/health answer first, then stores the whole demo', async () => {
    const demo: AppContext = { ...t.ctx, config: { ...t.ctx.config, simDevices: 3 } };
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('SELECT id FROM server WHERE id = 1 FOR UPDATE');
      const order: string[] = [];
      const seeding = seedDemo(demo).then((r) => {
        order.push('seed');
        return r;
      });
      await untilLockWaited(watcher, 'transactionid');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      // nothing of the seed is visible while its transaction waits
      expect(await count(t.ctx.store.sql, 'devices')).toBe(0);
      await locker.unsafe('ROLLBACK');
      const seeded = await seeding;
      expect(seeded.seeded).toBe(true);
      expect(seeded.deviceIds).toHaveLength(3);
      expect(order).toEqual(['health', 'seed']);
      expect(await count(t.ctx.store.sql, 'devices')).toBe(3);
    } finally {
      await end();
    }
  });
});
