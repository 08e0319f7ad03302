// The leader's advisory lock lives on a connection of its own (db/cluster.ts, issue #30 session 31). When that
// connection is lost the leader stops leading at once and the other process takes the lock: never two leaders at
// any moment. The store's own connection being lost does not move the lock.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgCluster } from '../../src/db/cluster.ts';
import { openStore, type Store } from '../../src/db/open.ts';
import { PostgresDatabase } from '../../src/db/postgres.ts';
import { DatabaseUnavailable } from '../../src/db/sql.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

const key = `leader-${randomUUID()}`;
let url: string;
let store: Store;
const dbs: PostgresDatabase[] = [];
const clusters: PgCluster[] = [];
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
  store = openStore({ sqliteFile: '', databaseUrl: url });
});
afterAll(async () => {
  for (const c of clusters) await c.close();
  for (const db of dbs) await db.close();
  await store?.close();
  await dropStore(key);
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function join(): Promise<{ db: PostgresDatabase; cluster: PgCluster }> {
  const db = new PostgresDatabase(url);
  dbs.push(db);
  const cluster = await PgCluster.start(db, url, () => undefined);
  clusters.push(cluster);
  return { db, cluster };
}

/** The backend holding the leader lock of a's schema (a session advisory lock on hashtext of its key). */
function lockHolder(db: PostgresDatabase): number | undefined {
  const row = store.sql
    .prepareNative(
      `SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
         AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext('rastro-leader:' || $1)::bigint`,
    )
    .get((db.prepareNative('SELECT current_schema() AS s').get() as { s: string }).s) as
    { pid: number } | undefined;
  return row?.pid;
}

describe('leader lock on its own connection', () => {
  it('steps down at once when its lock connection is lost; one leader again soon; never two', async () => {
    const a = await join();
    expect(a.cluster.isLeader()).toBe(true);
    const b = await join();
    expect(b.cluster.isLeader()).toBe(false);
    const pid = lockHolder(a.db);
    expect(pid).toBeGreaterThan(0);
    store.sql.prepareNative('SELECT pg_terminate_backend($1)').get(pid);
    // sampled every 20 ms: a steps down as its connection closes; then whichever asks first (b, or a on a new
    // connection) takes the free lock within a round
    let both = 0;
    let aDown = -1;
    let again = -1;
    for (let i = 0; i < 300; i++) {
      const leaders = [a, b].filter((x) => x.cluster.isLeader()).length;
      if (leaders === 2) both++;
      if (aDown < 0 && !a.cluster.isLeader()) aDown = i;
      if (aDown >= 0 && leaders === 1 && again < 0) again = i;
      if (again >= 0 && i > again + 150) break; // 3 s more
      await wait(20);
    }
    expect(aDown).toBeGreaterThanOrEqual(0);
    expect(aDown).toBeLessThan(50); // within a second of the loss
    expect(again).toBeGreaterThan(0);
    expect(both).toBe(0);
    const leader = a.cluster.isLeader() ? a : b;
    expect(leader.cluster.isLeader()).toBe(true);
    // the lock is held again, by a live backend other than the terminated one
    const holder = lockHolder(leader.db);
    expect(holder).toBeGreaterThan(0);
    expect(holder).not.toBe(pid);
  });

  it('a lost store connection does not move the lock: its own connection holds it', async () => {
    const a = await join();
    for (let i = 0; i < 150 && !a.cluster.isLeader(); i++) await wait(20); // the previous test's leader may be closing
    const leaderBefore = clusters.filter((c) => c.isLeader()).length;
    const storePid = (a.db.prepareNative('SELECT pg_backend_pid() AS pid').get() as { pid: number }).pid;
    store.sql.prepareNative('SELECT pg_terminate_backend($1)').get(storePid);
    for (let i = 0; i < 100 && a.db.client.generation === 0; i++) {
      try {
        a.db.prepareNative('SELECT 1').get();
      } catch (err) {
        if (!(err instanceof DatabaseUnavailable)) throw err;
      }
      await wait(20);
    }
    expect(a.db.client.generation).toBeGreaterThan(0);
    await wait(2_500);
    expect(clusters.filter((c) => c.isLeader()).length).toBe(leaderBefore);
    expect(leaderBefore).toBe(1);
  });
});
