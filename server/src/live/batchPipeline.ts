// How the live core stores its batches of positions in the store's own transactions (issue #30): SQLite's batches
// only (flushNow refuses PostgreSQL since session 36) — PostgreSQL's batches go through its pool
// (pooledBatches.ts, session 30), written as one statement each. A batch is
// answered only once its transaction is: its trackers then (200, or 503 for every position when it failed), and
// its devices, positions and events published only when stored.
//
// The posted path (SqlDatabase.transactionPosted, the worker's COMMIT posted without waiting, two batches in flight,
// the second `chained`: committed only if the first was; `late`: a COMMIT whose answer was lost, found committed
// later) is kept here for a store that has it and no pool; with a pool, the live core does not use it. A chained
// batch must not wait for a read: `readsNothing` says, before it starts, whether it would read (a device without
// its latest position in memory, a fix not after it, a queued command, ids to reserve); such a batch waits until
// nothing is in flight. SQLite: one waited batch at a time.
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

/**
 * Runs `work` in one transaction and calls `finish` once with the outcome (null: stored). Posted (`post` true on
 * PostgreSQL), `finish` comes from the event loop after the COMMIT's answer (or from settlePosted); otherwise it is
 * called before the call returns. `chained`: posted while another batch's COMMIT is unanswered; `late`: see
 * SqlDatabase.transactionPosted.
 */
function commitBatch(
  db: SqlDatabase,
  work: () => void,
  post: boolean,
  finish: (err: unknown) => void,
  chained = false,
  late?: (committed: boolean) => void,
): void {
  let failed: unknown = null;
  try {
    if (post && db.transactionPosted) {
      db.transactionPosted(work, finish, chained, late);
      return;
    }
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

/** Batches in flight at once: one committing, the next processed meanwhile. */
const IN_FLIGHT = 2;

export class BatchPipeline {
  private inFlight = 0;
  /** A batch was refused while others were in flight: none starts until they are answered. */
  private refused = false;
  /** The queue's next batch would read: it starts once nothing is in flight. */
  private held = false;

  constructor(
    private readonly db: SqlDatabase,
    /** The largest batch (the live core's). */
    private readonly batchSize: number,
    /** A device's state in memory (live/deviceStates.ts). */
    private readonly state: (deviceId: number) => Known | undefined,
    /** The devices with queued commands (each report takes one: a read). */
    private readonly queued: ReadonlySet<number>,
  ) {}

  /** Whether a batch might start now (the live core arms its timer only then). */
  get open(): boolean {
    return this.inFlight === 0 || (this.inFlight < IN_FLIGHT && !this.refused && !this.held);
  }

  /** Whether the queue's next batch starts now (chained behind another, only if it reads nothing). */
  mayStart(queue: ReadonlyArray<{ deviceId: number; p: { fixTime: Date } }>): boolean {
    if (this.inFlight === 0) return true;
    if (!this.open) return false;
    const next = queue.length > this.batchSize ? queue.slice(0, this.batchSize) : queue;
    if (readsNothing(this.db, next, this.state, this.queued)) return true;
    this.held = true;
    return false;
  }

  /**
   * Stores a batch (commitBatch), chained when another is in flight; `finish` gets the outcome and
   * `late` whether a batch refused for an unknown outcome was in fact stored (asked once PostgreSQL is back).
   */
  run(
    work: () => void,
    post: boolean,
    finish: (err: unknown) => void,
    late: (committed: boolean) => void,
  ): void {
    const chained = this.inFlight > 0;
    this.inFlight++;
    const answered = (err: unknown) => {
      this.inFlight--;
      this.held = false;
      if (err) this.refused = true;
      if (this.inFlight === 0) this.refused = false;
      finish(err);
    };
    commitBatch(this.db, work, post, answered, chained, late);
  }

  /**
   * A batch refused because its COMMIT's answer was lost, found committed later (db/pgWorker.ts settleLate): its
   * positions still their device's newest in memory (or forgotten), to publish now with its events (their resends
   * are acknowledged as stored and raise nothing); one already followed by a newer one is not news.
   */
  news(latest: Position[]): Position[] {
    return newsOf({ get: this.state }, latest);
  }
}

/** Of a late batch's positions, those still their device's newest in memory (or forgotten): news to publish. */
export function newsOf(states: { get(deviceId: number): Known | undefined }, latest: Position[]): Position[] {
  return latest.filter((p) => {
    const now = states.get(p.deviceId)?.last;
    return !now || Date.parse(now.fixTime) <= Date.parse(p.fixTime);
  });
}

/** What a chained batch looks at of a device before it starts (live/deviceStates.ts DevState). */
interface Known {
  loaded: boolean;
  last: Position | null;
}

/**
 * Whether a batch reads nothing from the store (it may then be processed behind an outstanding COMMIT): every
 * device's latest position in memory and each report's fix after it (no read-ahead, ingestSql.ts), no queued
 * command to take, and ids reserved for its positions and events.
 */
function readsNothing(
  db: SqlDatabase,
  batch: ReadonlyArray<{ deviceId: number; p: { fixTime: Date } }>,
  state: (deviceId: number) => Known | undefined,
  queued: ReadonlySet<number>,
): boolean {
  const latest = new Map<number, number>();
  for (const { deviceId, p } of batch) {
    const st = state(deviceId);
    if (!st?.loaded || !st.last || queued.has(deviceId)) return false;
    const prev = latest.get(deviceId) ?? Date.parse(st.last.fixTime);
    const fixMs = p.fixTime.getTime();
    if (fixMs <= prev) return false;
    latest.set(deviceId, fixMs);
  }
  // a position and an event or so each (the rare position raising more reserves its ids, waited)
  return db.idsReady?.(['positions', 'events'], 2 * batch.length + 16) ?? true;
}
