// How the live core stores one batch of positions (issue #30): in one transaction, and on PostgreSQL with its
// COMMIT posted without waiting (db/postgres.ts transactionPosted), so the main thread serves the API while
// PostgreSQL writes the batch to disk (about 80 % of a batch's hold of the main thread when it was waited). The
// batch is answered only once the COMMIT is: its trackers then (200, or 503 for every position when it failed),
// and its devices, positions and events published only when stored. The live core starts no other batch before.
import type { SqlDatabase } from '../db/sql.ts';
import type { IngestResult } from './types.ts';

/** Every position of a batch the store refused: answered 503 by OsmAnd, so trackers send them again. */
export const REFUSED: IngestResult = {
  ok: false,
  error: 'unavailable',
  message: 'Database unavailable, try again',
};
/** A position whose processing failed (the rest of its batch is stored). */
export const FAILED: IngestResult = { ok: false, error: 'failed', message: 'Position processing failed' };
/** A position of a disabled or expired device. */
export const DISABLED: IngestResult = {
  ok: false,
  error: 'disabledDevice',
  message: 'Device is disabled or expired',
};

/**
 * Runs `work` in one transaction and calls `finish` once with the outcome (null: stored). Posted (`post` true on
 * PostgreSQL), `finish` comes from the event loop after the COMMIT's answer (or from settlePosted); otherwise it is
 * called before the call returns.
 */
export function commitBatch(
  db: SqlDatabase,
  work: () => void,
  post: boolean,
  finish: (err: unknown) => void,
): void {
  let failed: unknown = null;
  try {
    if (post && db.transactionPosted) {
      db.transactionPosted(work, finish);
      return;
    }
    db.transaction(work)();
  } catch (err) {
    failed = err ?? new Error('position batch failed');
  }
  finish(failed);
}
