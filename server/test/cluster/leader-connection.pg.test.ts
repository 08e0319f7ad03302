// The leader's advisory lock lives on its store connection (db/cluster.ts). When that connection is lost the
// leader stops leading at once, and once connected again it never believes it still holds a lock it re-took and
// released: with a second process present, never two leaders (issue #30).
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

describe('leader lock and a lost connection', () => {
  it('steps down at once when its connection is lost; never two leaders afterwards', async () => {
    const a = await join();
    expect(a.cluster.isLeader()).toBe(true);
    const pid = (a.db.prepareNative('SELECT pg_backend_pid() AS pid').get() as { pid: number }).pid;
    store.sql.prepareNative('SELECT pg_terminate_backend($1)').get(pid);
    // the loss is seen at the next call (or when the socket closes); a's jobs stop at once
    for (let i = 0; i < 100 && a.db.client.generation === 0; i++) {
      try {
        a.db.prepareNative('SELECT 1').get();
      } catch (err) {
        if (!(err instanceof DatabaseUnavailable)) throw err;
      }
      await wait(20);
    }
    expect(a.db.client.generation).toBeGreaterThan(0);
    expect(a.cluster.isLeader()).toBe(false);
    await wait(2_500); // a asks for the lock again on its new connection
    const b = await join();
    await wait(2_500); // b asks twice meanwhile
    const leaders = [a, b].filter((x) => x.cluster.isLeader()).length;
    expect(leaders).toBe(1);
    const held = store.sql
      .prepareNative("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted")
      .get() as { n: number };
    expect(held.n).toBeGreaterThanOrEqual(1);
  });
});
