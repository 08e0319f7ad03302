// Faults of PostgreSQL's read pool (issue #30, session 22; db/pool.ts): a terminated connection fails the read
// waiting on it at once with DatabaseUnavailable and the pool connects again in the background; a statement past
// the statement timeout fails and the pool keeps working; with no connection up, a read fails at once. Each call has
// its own answer (session 37, ported from the retired worker's test): a call that gave up waiting never hands its
// late answer to the next call, whether PostgreSQL cancelled it or the pool stopped waiting for it.
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoreAsync, type Store } from '../../src/db/open.ts';
import { PgPool } from '../../src/db/pool.ts';
import { DatabaseUnavailable } from '../../src/db/sql.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { untilAvailable } from '../support/untilAvailable.ts';

const key = `pool-faults-${randomUUID()}`;
let url: string;
let store: Store;
const pools: PgPool[] = [];
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
  store = await openStoreAsync({ sqliteFile: '', databaseUrl: url }); // the schema's tables
});
afterAll(async () => {
  for (const p of pools) await p.close();
  await store?.close();
  await dropStore(key);
});

function pool(options: ConstructorParameters<typeof PgPool>[1]): PgPool {
  const p = new PgPool(url, options);
  pools.push(p);
  return p;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The backends running a statement that holds `marker`, looked at until there is one (5 s at most). */
async function backendsRunning(marker: string): Promise<number[]> {
  const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => undefined });
  try {
    for (let i = 0; i < 100; i++) {
      const rows = await admin.unsafe(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()",
        [marker],
      );
      if (rows.length) return (rows as unknown as Array<{ pid: number }>).map((r) => r.pid);
      await pause(50);
    }
    return [];
  } finally {
    await admin.end({ timeout: 1 });
  }
}

async function terminate(pids: number[]): Promise<void> {
  const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
  } finally {
    await admin.end({ timeout: 1 });
  }
}

describe('PostgreSQL read pool faults', () => {
  it('a terminated connection fails the waiting read at once; the next read works on a new connection', async () => {
    const p = pool({ size: 1, statementTimeoutMs: 60_000 });
    const marker = `m${randomUUID().replace(/-/g, '')}`;
    const waiting = p.all(`SELECT pg_sleep(30) AS slept, '${marker}' AS marker`, []);
    const failed = waiting.then(
      () => null,
      (err: unknown) => err,
    );
    const pids = await backendsRunning(marker);
    expect(pids).toHaveLength(1);
    await terminate(pids);
    const err = await failed;
    expect(err).toBeInstanceOf(DatabaseUnavailable);
    expect(String((err as Error).message)).not.toMatch(/statement timeout/);
    const rows = await untilAvailable(() => p.all('SELECT pg_backend_pid() AS pid, $1::int AS n', [7]));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.n).toBe(7);
    expect(rows[0]!.pid).not.toBe(pids[0]); // a new backend
  });

  it('a statement past the statement timeout fails with DatabaseUnavailable; the pool keeps working', async () => {
    const p = pool({ size: 1, statementTimeoutMs: 300 });
    await expect(p.all('SELECT pg_sleep(5)', [])).rejects.toThrow(
      /database unavailable: .*statement timeout/,
    );
    expect(await untilAvailable(() => p.all('SELECT 4 AS n', []))).toEqual([{ n: 4 }]);
  });

  it('calls queued behind a cancelled one on the same connection each get their own answer', async () => {
    const p = pool({ size: 1, statementTimeoutMs: 300 });
    // one connection: the three are sent in order on it, the first cancelled by the statement timeout
    const [slow, second, third] = await Promise.allSettled([
      p.all('SELECT pg_sleep(1.2), 1 AS which', []),
      p.all('SELECT 2 AS which', []),
      p.all('SELECT 3 AS which', []),
    ]);
    expect(slow.status).toBe('rejected');
    expect((slow as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseUnavailable);
    expect(second).toEqual({ status: 'fulfilled', value: [{ which: 2 }] });
    expect(third).toEqual({ status: 'fulfilled', value: [{ which: 3 }] });
  });

  it('a call the pool gave up waiting for does not hand its late answer to the next call', async () => {
    // statement_timeout lifted on the pool's one connection: PostgreSQL answers the sleep late (after 3 s), the
    // pool stops waiting at its statement timeout + 2 s grace (2.3 s) and drops that connection
    const p = pool({ size: 1, statementTimeoutMs: 300 });
    await p.all('SET statement_timeout = 0', []);
    const started = Date.now();
    await expect(p.all('SELECT pg_sleep(3), 1 AS which', [])).rejects.toThrow(/did not answer in time/);
    expect(Date.now() - started).toBeLessThan(2_900);
    await pause(1_000); // the late answer, if any connection still carried it, is there by now
    expect(await untilAvailable(() => p.all('SELECT 2 AS which', []))).toEqual([{ which: 2 }]);
    expect(await p.all('SELECT 3 AS which', [])).toEqual([{ which: 3 }]);
  });

  it('several reads run at once on several connections', async () => {
    const p = pool({ size: 3, statementTimeoutMs: 10_000 });
    const pids = await Promise.all(
      [1, 2, 3].map(() => p.all('SELECT pg_backend_pid() AS pid, pg_sleep(0.3) AS s', [])),
    );
    expect(new Set(pids.map((r) => r[0]!.pid)).size).toBe(3);
  });

  it('with no connection up a read fails with DatabaseUnavailable, not a hang', async () => {
    const closed = new URL(url);
    closed.port = '1'; // nothing listens there
    const p = new PgPool(closed.toString(), { size: 2, connectTimeoutS: 2 });
    pools.push(p);
    await expect(p.all('SELECT 1', [])).rejects.toBeInstanceOf(DatabaseUnavailable);
    await expect(p.all('SELECT 1', [])).rejects.toBeInstanceOf(DatabaseUnavailable);
    await expect(p.all('SELECT 1', [])).rejects.toBeInstanceOf(DatabaseUnavailable);
  });

  it('a connection whose first statement is cancelled rejects the read, never an unhandled rejection', async () => {
    // postgres.js asks for the array types as a new connection's first statement and drops that promise
    // (porsager/postgres#1192, #1223): when it fails (cancelled here by a 1 ms statement timeout; a backend
    // terminated or a connection reset while connecting in production) the rejection is unhandled, which ends a
    // Node process. Seen in CI as an ECONNRESET during osmand-pg-faults.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const p = pool({ size: 1, statementTimeoutMs: 1 });
      await p.all('SELECT 1', []).catch(() => undefined);
      await pause(300);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
