// The PostgreSQL lock tests' shared part (issue #30): another connection holds a lock in an open transaction, and
// the test waits until the server's statement is seen waiting for it in pg_locks, so the order it then checks is
// certain without any timing.
import postgres from 'postgres';
import { expect } from 'vitest';

type Client = ReturnType<typeof postgres>;

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
