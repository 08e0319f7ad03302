// The PostgreSQL lock tests' shared part (issue #30): another connection holds a lock in an open transaction, and
// the test waits until the server's statement is seen waiting for it in pg_locks, so the order it then checks is
// certain without any timing.
import postgres from 'postgres';
import { expect } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

type Client = ReturnType<typeof postgres>;

/**
 * A test app on PostgreSQL and its database's URL (for the lock clients): the lock tests' `beforeAll`. Fails when
 * RASTRO_TEST_DATABASE_URL is not set, since such a test proves nothing on SQLite.
 */
export async function startPgTestApp(
  ...args: Parameters<typeof makeTestApp>
): Promise<{ t: TestApp; url: string }> {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  const t = await makeTestApp(...args);
  return { t, url: (await storeEnv(t.dir)).DATABASE_URL! };
}

/** Two one-connection clients: `locker` holds the lock, `watcher` reads pg_locks; `end` closes both. */
export function lockClients(url: string): { locker: Client; watcher: Client; end: () => Promise<void> } {
  const locker = postgres(url, { max: 1, onnotice: () => undefined });
  const watcher = postgres(url, { max: 1, onnotice: () => undefined });
  const end = async () => {
    await locker.end({ timeout: 1 });
    await watcher.end({ timeout: 1 });
  };
  return { locker, watcher, end };
}

/** Resolves once some statement waits for a lock of `locktype`; fails the test after about 5 s. */
export async function untilLockWaited(
  watcher: Client,
  locktype: 'transactionid' | 'relation',
): Promise<void> {
  let waiting = 0;
  for (let i = 0; i < 100 && !waiting; i++) {
    const rows = await watcher.unsafe(
      'SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = $1',
      [locktype],
    );
    waiting = (rows[0] as unknown as { n: number }).n;
    if (!waiting) await new Promise((r) => setTimeout(r, 50));
  }
  expect(waiting).toBeGreaterThan(0);
}
