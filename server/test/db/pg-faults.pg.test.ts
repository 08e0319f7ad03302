// Faults of the PostgreSQL store (issue #30): an answer is matched to its request by id (a late answer to a request
// that gave up waiting is not read as the next one's), a statement that never answers fails within the
// connection's statement timeout, and a connection terminated in the middle of a transaction fails that
// transaction as a whole — nothing of it stored — while the next calls work again on a new connection.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/open.ts';
import { PostgresDatabase } from '../../src/db/postgres.ts';
import { DatabaseUnavailable } from '../../src/db/sql.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { qb, row } from '../../src/db/repos/query.ts';

const key = `faults-${randomUUID()}`;
let url: string;
let store: Store;
const extra: PostgresDatabase[] = [];
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
  store = openStore({ sqliteFile: '', databaseUrl: url }); // migrations
});
afterAll(async () => {
  for (const db of extra) await db.close();
  await store?.close();
  await dropStore(key);
});

function connect(options: ConstructorParameters<typeof PostgresDatabase>[1] = {}): PostgresDatabase {
  const db = new PostgresDatabase(url, options);
  extra.push(db);
  return db;
}

/** Blocks the thread for ms (the store is synchronous: so is everything around it here). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Calls fn until it no longer fails with DatabaseUnavailable (the worker is connecting again), at most 10 s. */
function once<T>(fn: () => T): T {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof DatabaseUnavailable) || Date.now() > end) throw err;
      pause(50);
    }
  }
}

describe('PostgreSQL store faults', () => {
  it('a request that gave up waiting does not hand its late answer to the next request', () => {
    const db = connect({ waitMs: 400, statementTimeoutMs: 5_000 });
    expect(() => db.prepareNative('SELECT pg_sleep(1.2), 1 AS which').get()).toThrow(DatabaseUnavailable);
    pause(1_500); // the late answer, if any, is there by now
    const row = once(() => db.prepareNative('SELECT 2 AS which').get());
    expect(row).toEqual({ which: 2 });
    expect(db.prepareNative('SELECT 3 AS which').get()).toEqual({ which: 3 });
  });

  it('a statement that never answers fails with the statement timeout; the connection works afterwards', () => {
    const db = connect({ statementTimeoutMs: 500, waitMs: 5_000 });
    expect(() => db.prepareNative('SELECT pg_sleep(30)').get()).toThrow(
      /database unavailable: .*statement timeout/,
    );
    expect(once(() => db.prepareNative('SELECT 4 AS n').get())).toEqual({ n: 4 });
  });

  it('a connection terminated during a transaction: nothing of it is stored, the next calls work', () => {
    const db = connect();
    const killer = connect();
    // the synchronous store itself (no pool attached): its reads go through its own handle, as everything here
    const count = () =>
      Number(
        row(
          db,
          qb(db)
            .selectFrom('devices')
            .select((e) => e.fn.countAll<number>().as('n')),
        )?.n,
      );
    const before = count();
    const pid = (db.prepareNative('SELECT pg_backend_pid() AS pid').get() as { pid: number }).pid;
    const add = db.prepareNative('INSERT INTO devices (name, "uniqueId") VALUES ($1, $2)');
    const touch = db.prepareNative('UPDATE devices SET name = $1 WHERE "uniqueId" = $2');
    const tag = randomUUID().slice(0, 8);
    expect(() =>
      db.transaction(() => {
        for (let i = 0; i < 60; i++) add.run(`A${i}`, `${tag}-a${i}`); // each waited for
        for (let i = 0; i < 60; i++) touch.runLater(`B${i}`, `${tag}-a${i}`);
        killer.prepareNative('SELECT pg_terminate_backend($1)').get(pid);
        pause(200);
        for (let i = 0; i < 60; i++) add.run(`C${i}`, `${tag}-c${i}`);
        for (let i = 0; i < 60; i++) touch.runLater(`D${i}`, `${tag}-c${i}`);
      })(),
    ).toThrow(DatabaseUnavailable);
    expect(once(count)).toBe(before);
    const stored = row(
      db,
      qb(db)
        .selectFrom('devices')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('uniqueId', 'like', `${tag}-%`),
    );
    expect(stored).toEqual({ n: 0 });
    // and the next transaction stores as a whole
    db.transaction(() => {
      for (let i = 0; i < 150; i++) add.runLater(`E${i}`, `${tag}-e${i}`);
    })();
    expect(count()).toBe(before + 150);
  });
});
