// The status sweep's writes wait in PostgreSQL, not on the main thread (issue #30, session 34: the sweep's
// transaction on the write client through inTransaction). Another connection holds the events table (LOCK TABLE in an
// open transaction; since session 36 a held device row is skipped, not waited for); the sweep's deviceUnknown insert
// is seen waiting in pg_locks, /api/health is answered meanwhile, and once the lock is released the sweep ends with
// the status and its event stored. Before, the sweep's UPDATE went through the synchronous worker (retired in session
// 37) inside the store's synchronous transaction, holding the main thread until PostgreSQL answered (health then
// waited for the lock too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, type TestApp } from '../helpers/index.ts';
import { ingestPosition, laterFixTime } from '../helpers/live.ts';
import { getLive } from '../../src/live/ingest.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';
import { first, select } from '../support/testSql.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

describe('the status sweep waiting on a locked device row', () => {
  it('health answers first, then the status and the deviceUnknown event are stored', async () => {
    const live = getLive(t.ctx);
    const d = await createDevice(t);
    await ingestPosition(t, { uniqueId: d.uniqueId, fixTime: laterFixTime() });
    await live.settle();
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      // the events table, not the device's row: the sweep skips a held device row (sweep-batch-locks.pg.test.ts)
      await locker.unsafe('LOCK TABLE events IN EXCLUSIVE MODE');
      const order: string[] = [];
      const swept = live
        .sweep(Date.now() + (t.ctx.config.statusTimeoutSeconds + 1) * 1000)
        .then(() => order.push('sweep'));
      await untilLockWaited(watcher, 'relation');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      await swept;
      expect(order).toEqual(['health', 'sweep']);
    } finally {
      await end();
    }
    expect(await first(t.ctx.store.sql, 'devices', { id: d.id }, { columns: ['status'] })).toEqual({
      status: 'unknown',
    });
    expect(await select(t.ctx.store.sql, 'events', { deviceId: d.id, type: 'deviceUnknown' })).toHaveLength(
      1,
    );
  });
});
