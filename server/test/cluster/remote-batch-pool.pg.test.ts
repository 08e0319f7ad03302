// A batch another process stored reaches this process's socket clients without the main thread waiting for its
// rows (issue #30, session 26): the positions and events a cluster message names (db/cluster.ts 'live') are read
// on the read pool (live/deviceStates.ts readRemote), not on the store connection, where the read queued behind this
// process's own batch and its COMMIT and held the thread meanwhile. Here the other process is a NOTIFY sent by the
// test, and the read is held in the database by a lock on the positions table (ACCESS EXCLUSIVE makes every read
// of it wait), so the order is certain without any timing: the server answers health while the read waits, and
// the position reaches the listeners once the lock is released.
import type { Position } from '@rastro/domain';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, type TestApp } from '../helpers/app.ts';
import { ingestPosition, laterFixTime } from '../helpers/live.ts';
import { getLive } from '../../src/live/ingest.ts';
import { getLiveServices } from '../../src/live/index.ts';
import { startPgTestApp } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;

beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

/** The backends waiting for a lock on `table` (looked at for 5 s at most: nothing runs here while the thread waits). */
async function waitersOn(sql: postgres.Sql, table: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const rows = await sql.unsafe(
      `SELECT count(*)::int AS n FROM pg_locks WHERE relation = '${table}'::regclass AND NOT granted`,
    );
    const n = (rows[0] as unknown as { n: number }).n;
    if (n > 0) return n;
    await new Promise((r) => setTimeout(r, 50));
  }
  return 0;
}

describe("another process's batch", () => {
  it('its position is read on the pool: health is answered while the read waits, then the socket side gets it', async () => {
    const device = await createDevice(t, { name: 'Remote batch' });
    const stored = await ingestPosition(t, { uniqueId: device.uniqueId, fixTime: laterFixTime() });
    const { hub } = getLiveServices(t.ctx);
    Object.defineProperty(hub, 'clientCount', { get: () => 1, configurable: true }); // someone watches here
    const order: string[] = [];
    const got: Position[] = [];
    const stop = getLive(t.ctx).subscribe({
      remote: true,
      positions: (ps) => {
        got.push(...ps);
        order.push('position');
      },
    });
    const locker = postgres(url, { max: 1, onnotice: () => undefined });
    const watcher = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('LOCK TABLE positions IN ACCESS EXCLUSIVE MODE');
      const channel = (t.ctx.cluster as unknown as { channel: string }).channel;
      const message = {
        t: 'live',
        node: 'another process',
        devices: [[device.id, 'online', Date.now(), stored.id]],
        positions: [stored.id],
        events: [],
      };
      await watcher.notify(channel, JSON.stringify(message));
      expect(await waitersOn(watcher, 'positions')).toBeGreaterThan(0);
      expect((await api(t.app, null, 'GET', '/api/health')).statusCode).toBe(200);
      order.push('health');
      await locker.unsafe('ROLLBACK');
      for (let i = 0; i < 100 && !got.length; i++) await new Promise((r) => setTimeout(r, 50));
      // before: the read waited on the store connection, holding the thread until the statement timeout (10 s)
      expect(order).toEqual(['health', 'position']);
      expect(got.map((p) => p.id)).toEqual([stored.id]);
    } finally {
      stop();
      delete (hub as unknown as { clientCount?: number }).clientCount;
      await locker.end({ timeout: 1 });
      await watcher.end({ timeout: 1 });
    }
  });
});
