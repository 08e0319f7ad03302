// How the live core answers its batches of positions (issue #30). SQLite's batches run in the store's own
// synchronous transaction (commitBatch); PostgreSQL's go through its pool (pooledBatches.ts, session 30), written as
// one statement each. A batch is answered only once its transaction is: its trackers then (200, or 503 for every
// position when it failed), and its devices, positions and events published only when stored.
import type { Event, Position } from '@rastro/domain';
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

/** Runs `work` in one synchronous transaction of the store (SQLite) and calls `finish` with the outcome (null: stored). */
export function commitBatch(db: SqlDatabase, work: () => void, finish: (err: unknown) => void): void {
  let failed: unknown = null;
  try {
    db.transaction(work)();
  } catch (err) {
    failed = err ?? new Error('position batch failed');
  }
  finish(failed);
}

/** What a batch computed (live/ingest.ts): its answers, and what it publishes once stored. */
export interface Outcome {
  results: IngestResult[];
  changedDevices: Set<number>;
  latest: Position[];
  events: Event[];
  handlerCalls: Array<() => void>;
  /** Devices whose queued command the batch delivered (queued again if it is refused). */
  dequeued: Set<number>;
}

export const outcome = (): Outcome => ({
  results: [],
  changedDevices: new Set(),
  latest: [],
  events: [],
  handlerCalls: [],
  dequeued: new Set(),
});

/** Of a late batch's positions, those still their device's newest in memory (or forgotten): news to publish. */
export function newsOf(states: { get(deviceId: number): Known | undefined }, latest: Position[]): Position[] {
  return latest.filter((p) => {
    const now = states.get(p.deviceId)?.last;
    return !now || Date.parse(now.fixTime) <= Date.parse(p.fixTime);
  });
}

/** What newsOf looks at of a device (live/deviceStates.ts DevState). */
interface Known {
  last: Position | null;
}
