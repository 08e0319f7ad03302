// The live core's batches on PostgreSQL's pool (issue #30, session 30): no worker thread, no waited round trip. A
// batch takes from the queue only reports of devices with no batch in flight (each device's reports stay in order:
// a report of a device in flight waits in the queue until that batch is answered, and is then computed from what
// it left in memory, or read again if it was refused). Its reads are made ahead on the pool (the devices' latest
// positions, the fixes it may repeat, the queued commands it may deliver, ids for its rows: ingest.ts readPooled),
// then it is computed in memory in one go and its rows written as ONE statement on a pooled connection
// (db/repos/ingestPooled.ts; the lanes: as many as the ingestion's writer gives, db/pool.ts writerOf).
// Batches of different devices are written side by side on different connections and
// each is answered when its own write is: stored (200) or refused, every position answered 503 and nothing stored.
// A write whose connection was lost is answered 503 at once and asked about in the background: if its rows are
// there after all, its positions and events are published then (`late`).
import type { Position } from '@rastro/domain';
import type { BatchRows, PooledIngest } from '../db/repos/ingestPooled.ts';
import { isDatabaseUnavailable, type SqlDatabase } from '../db/sql.ts';
import { readAheadAsync, type StoredFixes } from './ingestSql.ts';
import type { QueuedDbRow } from './json.ts';

/**
 * Reports a batch needs to start while another is in flight (issue #30, session 37, H30f). A pooled write's time
 * barely depends on its size (a flood on PostgreSQL, one process: 14 ms median for under 5 positions, 16–18 ms for
 * 20–80: its round trip, statement and COMMIT's log flush), so a lane spent on 2 or 3 reports is a lane the next
 * 30 wait behind. With a batch in flight, a smaller one waits for the next answer (which schedules again); with none
 * in flight any report starts at once, so a lone tracker's latency is unchanged.
 */
export const LANE_FILL = 16;
/**
 * How long fewer reports wait for a batch in flight before they start anyway (about one write's time): a batch held
 * in PostgreSQL (a row lock, a slow statement) never holds other devices' reports longer.
 */
export const LANE_WAIT_MS = 20;
/** Pause between two questions about a lost write's outcome. */
const ASK_MS = 500;
/** How long a lost write's outcome is asked about when PostgreSQL cannot be reached. */
const GIVE_UP_MS = 60_000;

/** The queued commands a batch may deliver (ingest.ts processOne). */
export interface QueuedSource {
  first(deviceId: number): QueuedDbRow | undefined;
  /** The command is delivered: deleted with the batch. */
  take(q: QueuedDbRow): void;
  /** Whether the device surely has no queued command left. */
  none(deviceId: number): boolean;
}

/** What a pooled batch needs of the live core to read ahead (ingest.ts). */
interface Reading {
  /** Makes the live cache fresh, reloaded on the pool (cache.ts freshAsync). */
  fresh(): Promise<unknown>;
  /** Loads the devices' states, their latest positions read on the pool (deviceStates.ts loadStatesAsync). */
  loadStates(ids: readonly number[]): Promise<void>;
  latest(deviceId: number): Position | null | undefined;
  queuedDevices: ReadonlySet<number>;
  /** Changes whenever a command is queued. */
  epoch(): number;
}

/**
 * A pooled batch's reads, on the pool before it is computed: its devices' latest positions, the queued commands it
 * may deliver, ids for its rows and the live cache's reload side by side, then the stored fixes it may repeat
 * (which depend on the latest).
 */
export async function readPooled(
  db: SqlDatabase,
  ingest: PooledIngest,
  batch: ReadonlyArray<{ deviceId: number; p: { fixTime: Date } }>,
  devices: ReadonlySet<number>,
  rows: BatchRows,
  core: Reading,
): Promise<{ known: StoredFixes; queued: QueuedSource }> {
  const epoch = core.epoch();
  const withQueued = [...devices].filter((id) => core.queuedDevices.has(id));
  const [, commands] = await Promise.all([
    core.loadStates([...devices]),
    withQueued.length ? ingest.queuedOf(withQueued) : [],
    ingest.idsFor(batch.length),
    core.fresh(),
  ]);
  const known = await readAheadAsync(db, batch, core.latest);
  await core.fresh(); // invalidated while the batch read: read again, so it is computed on a fresh cache
  const queued = queuedAhead(commands as unknown as QueuedDbRow[], rows, () => epoch === core.epoch());
  return { known, queued };
}

/** A pooled batch's queued commands, read ahead; `unchanged`: no command was queued since they were read. */
function queuedAhead(rows: QueuedDbRow[], batch: BatchRows, unchanged: () => boolean): QueuedSource {
  const byDevice = new Map<number, QueuedDbRow[]>();
  for (const r of rows) {
    const list = byDevice.get(r.deviceId);
    if (list) list.push(r);
    else byDevice.set(r.deviceId, [r]);
  }
  return {
    first: (deviceId) => byDevice.get(deviceId)?.[0],
    take: (q) => {
      byDevice.get(q.deviceId)?.shift();
      batch.dequeued(q.id);
    },
    none: (deviceId) => !byDevice.get(deviceId)?.length && unchanged(),
  };
}

export class PooledLanes {
  /** The devices of the batches in flight. */
  private readonly busy = new Set<number>();
  private inFlight = 0;

  /** Set when fewer than `fill` reports were left queued: LANE_WAIT_MS later they start anyway. */
  private waitTimer: NodeJS.Timeout | null = null;
  private waited = false;

  constructor(
    private readonly ingest: PooledIngest,
    /** Called once fewer reports than `fill` have waited LANE_WAIT_MS (live/ingest.ts: schedule again). */
    private readonly wake: () => void = () => undefined,
    /** Reports a batch needs to start while another is in flight (LANE_FILL; 1: any). */
    private readonly fill = LANE_FILL,
  ) {}

  /** Whether another batch may start. */
  get open(): boolean {
    return this.inFlight < this.ingest.lanes;
  }

  /** Batches in flight (tests, diagnostics). */
  get running(): number {
    return this.inFlight;
  }

  /**
   * Takes from the queue, in order, at most `size` reports of devices with no batch in flight; the others stay
   * queued in their order (once a report of a device stays, every later one of it stays too). While a batch is in
   * flight, fewer than `fill` such reports (and fewer than `size`) are left queued: nothing is taken; the next
   * answer schedules again, or `wake` after LANE_WAIT_MS, and then they start.
   */
  take<T extends { deviceId: number }>(queue: T[], size: number): T[] {
    const out: T[] = [];
    const rest: T[] = [];
    for (const item of queue) {
      if (out.length < size && !this.busy.has(item.deviceId)) out.push(item);
      else rest.push(item);
    }
    if (out.length && this.inFlight > 0 && !this.waited && out.length < Math.min(this.fill, size)) {
      this.waitTimer ??= setTimeout(() => {
        this.waitTimer = null;
        this.waited = true;
        this.wake();
      }, LANE_WAIT_MS).unref();
      return [];
    }
    if (out.length) {
      this.waited = false;
      if (this.waitTimer) clearTimeout(this.waitTimer);
      this.waitTimer = null;
      refill(queue, rest);
    }
    return out;
  }

  /**
   * Takes out of the queue the reports of a refused batch's devices, all queued while it was in flight: refused
   * too, so that each device's reports are sent again in their order.
   */
  drop<T extends { deviceId: number }>(queue: T[], devices: ReadonlySet<number>): T[] {
    const out = queue.filter((q) => devices.has(q.deviceId));
    if (out.length)
      refill(
        queue,
        queue.filter((q) => !devices.has(q.deviceId)),
      );
    return out;
  }

  /**
   * Runs a batch of these devices: `compute` reads ahead and computes it into its rows, which are then written as
   * one statement; `answer` gets the outcome (null: stored), and `late` is called if a write refused because its
   * connection was lost turns out stored.
   */
  run(
    devices: Iterable<number>,
    compute: (rows: BatchRows) => Promise<void>,
    answer: (err: unknown) => void,
    late: () => void,
  ): void {
    const mine = new Set(devices);
    for (const id of mine) this.busy.add(id);
    this.inFlight++;
    const rows = this.ingest.begin();
    let sentAt = 0;
    const finish = (err: unknown) => {
      for (const id of mine) this.busy.delete(id);
      this.inFlight--;
      answer(err);
    };
    compute(rows)
      .then(() => {
        sentAt = Date.now();
        return this.ingest.write(rows);
      })
      .then(
        () => finish(null),
        (err: unknown) => {
          finish(err ?? new Error('position batch failed'));
          if (sentAt && isDatabaseUnavailable(err)) this.askLater(rows, sentAt, late);
        },
      );
  }

  /**
   * Whether a write whose connection was lost is stored, asked until its statement surely ended (the pool's
   * statement timeout has passed since it was sent) or found stored; `late` then.
   */
  private askLater(rows: BatchRows, sentAt: number, late: () => void): void {
    if (!rows.ids.positions.length && !rows.ids.events.length) return; // nothing to publish
    const decided = sentAt + this.ingest.settledAfterMs;
    const giveUp = Date.now() + GIVE_UP_MS;
    const again = () => setTimeout(ask, ASK_MS).unref();
    const ask = () => {
      const askedAt = Date.now();
      this.ingest.stored(rows).then(
        (stored) => {
          if (stored) {
            this.ingest.storedLate(rows);
            late();
          } else if (askedAt < decided) again();
        },
        () => Date.now() < giveUp && again(),
      );
    };
    again();
  }
}

/** The queue's items replaced in place (no spread: a queue may hold more items than a call takes arguments). */
function refill<T>(queue: T[], items: readonly T[]): void {
  queue.length = 0;
  for (const item of items) queue.push(item);
}
