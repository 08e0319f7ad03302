// The API request counter's write (traccar/requestCounter.ts) never takes a connection of the read pool (issue #30,
// session 32). With two processes on one database both upsert the same hour's row once a second, and the one that
// waits for the other's row lock and COMMIT held a pool connection meanwhile: during a flood, the one the API's
// reads had left (bench/stores.ts, two processes' p99). Here another connection holds that row (FOR UPDATE in an
// open transaction), the counter's upsert waits for it in PostgreSQL, and a read on a pool of ONE connection is
// answered meanwhile; once the lock is released the counts are stored. In session 31 the read waited behind the
// upsert until the lock was released. The order is certain: the test sees the upsert waiting in pg_locks first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qb, rowAsync } from '../../src/db/repos/query.ts';
import { requestCounter } from '../../src/traccar/requestCounter.ts';
import { type TestApp } from '../helpers/app.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp({}, { DATABASE_POOL_SIZE: '1' }));
});
afterAll(async () => {
  await t?.close();
});

const HOUR = '2001-02-03T04';

describe("the request counter's write waiting on the hour's row lock", () => {
  it('leaves the read pool to the API, then is stored', async () => {
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('INSERT INTO request_stats (day, requests) VALUES ($1, 5)', [HOUR]);
      await locker.unsafe('BEGIN');
      await locker.unsafe('SELECT requests FROM request_stats WHERE day = $1 FOR UPDATE', [HOUR]);
      const counter = requestCounter(t.ctx);
      counter.count(HOUR);
      counter.count(HOUR);
      const flushing = counter.flush(); // the timer's write: sent without the main thread waiting
      await untilLockWaited(watcher, 'transactionid');
      const db = t.ctx.store.sql;
      const read = rowAsync(db, qb(db).selectFrom('server').select('id').where('id', '=', 1));
      const late = new Promise<'late'>((r) => setTimeout(() => r('late'), 3000));
      expect(await Promise.race([read, late])).toEqual({ id: 1 });
      await locker.unsafe('COMMIT');
      await flushing;
      const stored = await watcher.unsafe('SELECT requests FROM request_stats WHERE day = $1', [HOUR]);
      expect(Number((stored[0] as unknown as { requests: number }).requests)).toBe(7);
    } finally {
      await end();
    }
  });
});
