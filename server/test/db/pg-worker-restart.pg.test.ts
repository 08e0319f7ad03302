// A PostgreSQL worker thread that stopped (a crash) is replaced (issue #30): the next query works on a new worker
// and connection, the connection generation moves on (the leader lock went with the old one), and a transaction
// started after the crash is stored whole. A statement's text travels to a worker once (then its name and values
// only), and again to a new worker.
import { randomUUID } from 'node:crypto';
import type { MessagePort, Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/open.ts';
import { PostgresDatabase } from '../../src/db/postgres.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

const key = `worker-restart-${randomUUID()}`;
let url: string;
let store: Store;
let db: PostgresDatabase;
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
  store = openStore({ sqliteFile: '', databaseUrl: url }); // migrations
  db = new PostgresDatabase(url);
});
afterAll(async () => {
  await db?.close();
  await store?.close();
  await dropStore(key);
});

/** Stops the store's worker thread as a crash would, and lets its exit be seen. */
async function killWorker(): Promise<void> {
  const worker = (db.client as unknown as { worker: Worker }).worker;
  const exited = new Promise((ok) => worker.once('exit', ok));
  await worker.terminate();
  await exited;
}

describe('a stopped PostgreSQL worker thread', () => {
  it('is started again by the next query, with a new connection generation', async () => {
    expect(db.prepareNative('SELECT 1 AS n').get()).toEqual({ n: 1 });
    const generation = db.client.generation;
    await killWorker();
    expect(db.prepareNative('SELECT 2 AS n').get()).toEqual({ n: 2 });
    expect(db.client.restarts).toBe(1);
    expect(db.client.generation).toBeGreaterThan(generation);
  });

  it('a transaction begun after the crash is stored whole', async () => {
    await killWorker();
    const insert = db.prepareNative(`INSERT INTO devices (name, "uniqueId") VALUES ('W', $1)`);
    db.transaction(() => {
      for (let i = 0; i < 3; i++) insert.run(`${key}-${i}`);
    })();
    const n = db
      .prepareNative('SELECT COUNT(*) AS n FROM devices WHERE "uniqueId" LIKE $1')
      .get(`${key}-%`) as {
      n: number;
    };
    expect(Number(n.n)).toBe(3);
    expect(db.client.restarts).toBe(2);
  });

  it("sends a statement's text once, then its name and values; a new worker gets the text again", async () => {
    const sent: Array<{ name?: string; text?: string }> = [];
    const watch = () => {
      const port = (db.client as unknown as { port: MessagePort }).port;
      const post = port.postMessage.bind(port);
      port.postMessage = (m: unknown) => {
        for (const e of Array.isArray(m) ? m : [m]) sent.push(e as { name?: string; text?: string });
        post(m);
      };
    };
    watch();
    const byId = db.prepareNative('SELECT $1 + 1 AS n');
    expect([1, 2, 3].map((i) => byId.get(i))).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }]);
    const name = sent.find((e) => e.text?.includes('+ 1'))?.name;
    expect(name).toBeDefined();
    expect(sent.filter((e) => e.name === name).map((e) => Boolean(e.text))).toEqual([true, false, false]);
    await killWorker();
    expect(byId.get(9)).toEqual({ n: 10 }); // the restart's new port: watched from here
    watch();
    expect(byId.get(10)).toEqual({ n: 11 });
    expect(db.client.restarts).toBe(3);
  });
});
