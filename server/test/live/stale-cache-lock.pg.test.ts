// The ingestion's reload of a stale live cache does not hold the server (issue #30, session 32; deviceStates.ts
// findDeviceAsync, LiveCache.freshAsync): another connection holds the devices table (LOCK … ACCESS EXCLUSIVE in an
// open transaction), the cache's reload waits for it in PostgreSQL, and a timer of this process fires meanwhile; once
// the lock is released the report is stored. Before, a report after an invalidation reloaded the cache through the
// synchronous worker, which blocks the main thread until PostgreSQL answers (here: until the statement timeout, since
// this same process could not release the lock). The order is certain: the test sees the reload waiting in pg_locks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLive } from '../../src/live/ingest.ts';
import { createDevice, ingestPosition, laterFixTime, type TestApp } from '../helpers/index.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

describe("a stale live cache's reload waiting on a lock", () => {
  it('leaves the main thread free, then the report is stored', async () => {
    const device = await createDevice(t, { name: 'Locked table' });
    await ingestPosition(t, { uniqueId: device.uniqueId, fixTime: laterFixTime() });
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('LOCK TABLE devices IN ACCESS EXCLUSIVE MODE');
      const live = getLive(t.ctx);
      live.invalidate(); // as another process's change does
      const order: string[] = [];
      const report = ingestPosition(t, { uniqueId: device.uniqueId, fixTime: laterFixTime() }).then((p) => {
        order.push('stored');
        return p;
      });
      await untilLockWaited(watcher, 'relation');
      await new Promise((r) => setTimeout(r, 20));
      order.push('timer');
      expect(live.cache.stale).toBe(true);
      await locker.unsafe('COMMIT');
      expect((await report).deviceId).toBe(device.id);
      expect(order).toEqual(['timer', 'stored']);
      expect(live.cache.stale).toBe(false);
    } finally {
      await end();
    }
  });
});
