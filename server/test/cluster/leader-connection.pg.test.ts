// The leader's advisory lock lives on a connection of its own (db/cluster.ts, issue #30 session 31). When that
// connection is lost the leader stops leading at once and the other process takes the lock: never two leaders at
// any moment. A connection of the store's pool being lost does not move the lock.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgCluster } from '../../src/db/cluster.ts';
import { openStoreAsync, type Store } from '../../src/db/open.ts';
import { qb, rowAsync } from '../../src/db/repos/query.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { untilAvailable } from '../support/untilAvailable.ts';

const key = `leader-${randomUUID()}`;
let url: string;
let store: Store;
let admin: postgres.Sql;
let schema = '';
const clusters: PgCluster[] = [];
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
  store = await openStoreAsync({ sqliteFile: '', databaseUrl: url });
  admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => undefined });
  schema = (await rowAsync(store.sql, qb(store.sql).selectNoFrom(sql<string>`current_schema()`.as('s'))))!.s;
});
afterAll(async () => {
  for (const c of clusters) await c.close();
  await admin?.end({ timeout: 1 });
  await store?.close();
  await dropStore(key);
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process joining the cluster of the store's schema (it uses no connection of the store). */
async function join(): Promise<{ cluster: PgCluster }> {
  const cluster = await PgCluster.start(url, () => undefined);
  clusters.push(cluster);
  return { cluster };
}

/** The backend holding the leader lock of the schema (a session advisory lock on hashtext of its key). */
async function lockHolder(): Promise<number | undefined> {
  const rows = await admin.unsafe(
    `SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext('rastro-leader:' || $1)::bigint`,
    [schema],
  );
  return (rows[0] as unknown as { pid: number } | undefined)?.pid;
}

const backendPid = () =>
  rowAsync(store.sql, qb(store.sql).selectNoFrom(sql<number>`pg_backend_pid()`.as('pid')));

describe('leader lock on its own connection', () => {
  it('steps down at once when its lock connection is lost; one leader again soon; never two', async () => {
    const a = await join();
    expect(a.cluster.isLeader()).toBe(true);
    const b = await join();
    expect(b.cluster.isLeader()).toBe(false);
    const pid = await lockHolder();
    expect(pid).toBeGreaterThan(0);
    await admin.unsafe('SELECT pg_terminate_backend($1)', [pid!]);
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
    const holder = await lockHolder();
    expect(holder).toBeGreaterThan(0);
    expect(holder).not.toBe(pid);
  });

  it('a lost store connection does not move the lock: its own connection holds it', async () => {
    const a = await join();
    for (let i = 0; i < 150 && !a.cluster.isLeader(); i++) await wait(20); // the previous test's leader may be closing
    const leaderBefore = clusters.filter((c) => c.isLeader()).length;
    const storePid = (await backendPid())!.pid;
    await admin.unsafe('SELECT pg_terminate_backend($1)', [storePid]);
    // the store's pool connects again; its reads work on a new backend
    let after = storePid;
    for (let i = 0; i < 100 && after === storePid; i++) {
      after = (await untilAvailable(backendPid))!.pid;
      if (after === storePid) await wait(20);
    }
    expect(after).not.toBe(storePid);
    await wait(2_500);
    expect(clusters.filter((c) => c.isLeader()).length).toBe(leaderBefore);
    expect(leaderBefore).toBe(1);
  });
});
