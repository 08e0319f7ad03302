// The status sweep's row locks (live/statusSweep.ts, issue #30, session 36): before it writes, the sweep's
// transaction locks its devices' rows in id order and skips those another transaction holds (FOR UPDATE SKIP
// LOCKED). A row held elsewhere is being written by a position batch (the device reported, so it is not silent) or
// by an API edit; the sweep leaves it for its next run instead of waiting. It never waits for a devices row, so it
// can never be one side of a deadlock with a pooled ingestion batch that writes the same rows in another order.
// SQLite runs one transaction at a time: nothing to lock, the ids in order.
import type { SqlDatabase } from '../sql.ts';
import { qb, rowsAsync } from './query.ts';

/** Locks the devices `ids` not held by another transaction, in id order, on the transaction `tx`: their ids. */
export async function lockUnheldDevicesAsync(tx: SqlDatabase, ids: readonly number[]): Promise<number[]> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (!sorted.length || tx.dialect === 'sqlite') return sorted;
  const query = qb(tx)
    .selectFrom('devices')
    .select('id')
    .where('id', 'in', sorted)
    .orderBy('id')
    .forUpdate()
    .skipLocked();
  return (await rowsAsync(tx, query)).map((r) => Number(r.id));
}
