// The ingestion's batches on PostgreSQL's pool (issue #30, session 30; docs/decisions/41-kysely-repositories.md).
// A batch is computed in memory (live/ingest.ts) after its reads were made ahead on the pool, and its rows — the
// positions, events, hours of activity, device states and the queued commands it delivered — are written as ONE
// statement (ingestBatch.ts batchSql: data-modifying WITH clauses) on the ingestion's writer (db/pool.ts writerOf:
// the read pool, or a pool of its own, one connection per write lane: db/open.ts INGEST_CONNECTIONS). A single
// statement is its own transaction: all of the batch or nothing, and no transaction stays open across turns of the
// event loop (decision 41, session 22). Ids of the rows published (positions, events) are reserved ahead from the
// tables' sequences on the pool, refilled before they run out. A write whose connection was lost is answered
// unavailable at once; `stored` tells later whether it committed (any of its reserved ids present), so a stored batch
// is still published. The hours of activity of stored batches are held in memory and added every ACTIVITY_HOLD_MS as
// one statement (HeldActivity, issue #30, session 47): a device's row is then updated once per interval, not once per
// batch (docs/decisions/41-kysely-repositories.md, session 47).
import { writerOf, type PgPool } from '../pool.ts';
import { DatabaseUnavailable, type SqlDatabase } from '../sql.ts';
import { anyOf, qb } from './query.ts';
import {
  activityKey,
  BATCH_TABLES,
  batchSql,
  mergeActivity,
  type ActivityRow,
  type BatchTable,
  type DeviceStateRow,
  type EventRow,
  type IngestWrites,
  type PositionRow,
} from './ingestBatch.ts';

/** `$2` ids taken from the sequence of table `$1`, ahead of the batches that insert with them. */
const RESERVE_SQL = `SELECT nextval(pg_get_serial_sequence($1::text, 'id')) AS id FROM generate_series(1, $2::int)`;
/** Whether any of the ids (JSON arrays) is stored: a batch's write is all or nothing, so one says for all. */
const STORED_SQL = `SELECT 1 AS found FROM positions WHERE "id" IN
    (SELECT value::bigint FROM json_array_elements_text($1::text::json))
  UNION ALL SELECT 1 FROM events WHERE "id" IN (SELECT value::bigint FROM json_array_elements_text($2::text::json))
  LIMIT 1`;

type IdTable = 'positions' | 'events';

/** Ids reserved ahead on the pool, per table; taken smallest first. */
class PooledIds {
  private readonly free = new Map<IdTable, number[]>();
  private readonly refills = new Map<IdTable, Promise<void>>();

  constructor(private readonly pool: PgPool) {}

  /** Resolves once each table has `need` ids (asked for on the pool); below three times that, more are asked for. */
  async ready(need: number): Promise<void> {
    for (const table of ['positions', 'events'] as const) {
      if (this.count(table) < 3 * need)
        void this.refill(table, Math.max(500, 3 * need)).catch(() => undefined);
      while (this.count(table) < need) await this.refill(table, Math.max(500, 3 * need));
    }
  }

  private count(table: IdTable): number {
    return this.free.get(table)?.length ?? 0;
  }

  private refill(table: IdTable, n: number): Promise<void> {
    let pending = this.refills.get(table);
    if (pending) return pending;
    pending = this.pool
      .all(RESERVE_SQL, [table, n])
      .then((rows) => {
        // taken from the end, smallest first: the new (larger) ids go before the ones left
        const got = rows.map((r) => Number(r.id)).reverse();
        this.free.set(table, [...got, ...(this.free.get(table) ?? [])]);
      })
      .finally(() => this.refills.delete(table));
    this.refills.set(table, pending);
    return pending;
  }

  /**
   * The next id reserved ahead. A batch raising more events than foreseen finds none left: it fails unavailable
   * (its reports answered 503, sent again) and more are asked for on the pool for the next one.
   */
  take(table: IdTable): number {
    const id = this.free.get(table)?.pop();
    if (id !== undefined) return id;
    void this.refill(table, 500).catch(() => undefined);
    throw new DatabaseUnavailable(`no ${table} ids reserved ahead`);
  }
}

/** One batch's rows, held in memory until its one statement. */
export class BatchRows implements IngestWrites {
  private readonly rows = new Map<BatchTable, Map<unknown, unknown>>();
  private next = 0;
  /** The ids of the positions and events written (how a lost write's outcome is asked for). */
  readonly ids: Record<IdTable, number[]> = { positions: [], events: [] };

  constructor(private readonly reserved: PooledIds) {}

  private add(table: BatchTable, row: unknown, key: unknown = this.next++): void {
    let rows = this.rows.get(table);
    if (!rows) this.rows.set(table, (rows = new Map()));
    rows.set(key, row);
  }

  position(row: PositionRow): number {
    const id = this.reserved.take('positions');
    this.add('positions', { ...row, id });
    this.ids.positions.push(id);
    return id;
  }

  event(row: EventRow): number {
    const id = this.reserved.take('events');
    this.add('events', { ...row, id });
    this.ids.events.push(id);
    return id;
  }

  deviceState(row: DeviceStateRow): void {
    this.add('devices', { ...row }, row.id);
  }

  activity(row: ActivityRow): void {
    const key = activityKey(row);
    const held = this.rows.get('activity')?.get(key) as ActivityRow | undefined;
    if (held) mergeActivity(held, row);
    else this.add('activity', { ...row }, key);
  }

  /** A queued command delivered by this batch: deleted with its rows. */
  dequeued(id: number): void {
    this.add('queued', id, id);
  }

  /** The hours of activity the batch adds (held until the batch is stored: HeldActivity). */
  activityRows(): ActivityRow[] {
    return [...((this.rows.get('activity')?.values() ?? []) as Iterable<ActivityRow>)];
  }

  /**
   * The tables written and each one's rows as the statement's JSON parameter (none: nothing to write). The hours of
   * activity are not among them: they go to HeldActivity once the batch is stored.
   */
  statement(): { tables: BatchTable[]; values: string[] } {
    const tables = BATCH_TABLES.filter((t) => t !== 'activity' && (this.rows.get(t)?.size ?? 0) > 0);
    return { tables, values: tables.map((t) => JSON.stringify([...this.rows.get(t)!.values()])) };
  }
}

/**
 * How long the hours of activity of stored batches are held in memory before they are added to the store. A device
 * reporting every second then updates its row of the hour once in five seconds instead of five times; the dashboard
 * and the scores, which sum whole hours, read them at most this late from another process (this process adds what it
 * holds before it reads: writeHeldActivity). A process killed loses at most this long of its hours of activity (its
 * positions are stored); a stopped one adds them as it closes.
 */
export const ACTIVITY_HOLD_MS = 5_000;

/** A failed write's rows held for the next one (HeldActivity.failed). */
const HELD_AGAIN = 'hours of activity not added yet (held for the next write)';

/** The order hours of activity are added in (device, hour, driver): two processes' statements lock rows alike. */
const byActivityKey = (a: ActivityRow, b: ActivityRow): number =>
  a.deviceId - b.deviceId || a.hour - b.hour || (a.driver < b.driver ? -1 : a.driver > b.driver ? 1 : 0);

/**
 * The hours of activity of stored batches, summed per (device, hour, driver) and added as ONE autocommitted statement
 * ACTIVITY_HOLD_MS after the first of them (or at once: write). A write that fails holds its rows again for the next
 * one (after a connection lost while the statement ran, its rows may then be added twice: at least once, never lost
 * while the process lives).
 */
export class HeldActivity {
  private held = new Map<string, ActivityRow>();
  /** How long rows wait for their write (ACTIVITY_HOLD_MS; a test may hold them longer). */
  holdMs = ACTIVITY_HOLD_MS;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /**
   * A write failed: by the timer or before a read, its rows held again; or the last one as the process stops, its
   * rows gone (writeLast). `what` says which, for the log.
   */
  failed: (err: unknown, what: string) => void = () => undefined;

  constructor(private readonly pool: PgPool) {}

  get size(): number {
    return this.held.size;
  }

  add(rows: Iterable<ActivityRow>): void {
    for (const row of rows) {
      const key = activityKey(row);
      const held = this.held.get(key);
      if (held) mergeActivity(held, row);
      else this.held.set(key, { ...row });
    }
    if (this.held.size > 0 && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.write().catch((err: unknown) => this.failed(err, HELD_AGAIN));
      }, this.holdMs);
      this.timer.unref();
    }
  }

  /** Adds what is held now to the store, after any write under way. */
  write(): Promise<void> {
    const next = this.writing.then(() => this.writeHeld());
    this.writing = next.catch(() => undefined);
    return next;
  }

  /**
   * Adds what is held before the dashboard or the scores read: a failed write holds its rows again and is told
   * (failed), and the read goes on with what the store has (at most ACTIVITY_HOLD_MS behind, as another process's).
   */
  async writeForRead(): Promise<void> {
    try {
      await this.write();
    } catch (err) {
      this.failed(err, HELD_AGAIN);
    }
  }

  /** The last write, as the process stops: when it fails, what it held is lost and told with its count (failed). */
  async writeLast(): Promise<void> {
    try {
      await this.write();
    } catch (err) {
      const lost = this.held.size;
      this.held = new Map();
      if (this.timer) clearTimeout(this.timer); // held again by the failed write: nothing left to write
      this.timer = null;
      this.failed(
        err,
        `hours of activity lost as the process stopped (${lost} rows of a device, hour and driver)`,
      );
    }
  }

  private async writeHeld(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.held.size === 0) return;
    const rows = [...this.held.values()].sort(byActivityKey);
    this.held = new Map();
    try {
      await this.pool.all(batchSql(['activity']), [JSON.stringify(rows)]);
    } catch (err) {
      this.add(rows);
      throw err;
    }
  }
}

/** The pooled write path of a PostgreSQL store with an ingestion pool (null on SQLite). */
export class PooledIngest {
  private readonly ids: PooledIds;
  private readonly texts = new Map<string, string>();

  /** The hours of activity of stored batches, not yet added. */
  readonly activity: HeldActivity;

  constructor(
    private readonly store: SqlDatabase,
    private readonly pool: PgPool,
    /** Batches written at once (live/pooledBatches.ts): one per connection of the ingestion's pool. */
    readonly lanes: number,
  ) {
    this.ids = new PooledIds(pool);
    this.activity = new HeldActivity(pool);
  }

  /** After how long a write sent is surely over in PostgreSQL (committed or not): its statement timeout and more. */
  get settledAfterMs(): number {
    return this.pool.statementTimeoutMs + 3_000;
  }

  /** Ids for a batch of `n` reports (a position and an event or so each), asked for on the pool when short. */
  idsFor(n: number): Promise<void> {
    return this.ids.ready(2 * n + 16);
  }

  begin(): BatchRows {
    return new BatchRows(this.ids);
  }

  /**
   * Writes the batch's rows as one statement on a pooled connection (nothing held: answered at once); once it is
   * stored, its hours of activity are held to be added (HeldActivity).
   */
  async write(rows: BatchRows): Promise<void> {
    const { tables, values } = rows.statement();
    if (tables.length) {
      const kind = tables.join(',');
      let text = this.texts.get(kind);
      if (!text) this.texts.set(kind, (text = batchSql(tables)));
      await this.pool.all(text, values);
    }
    this.activity.add(rows.activityRows());
  }

  /** A batch whose write lost its connection was stored after all (`stored`): its hours of activity held too. */
  storedLate(rows: BatchRows): void {
    this.activity.add(rows.activityRows());
  }

  /** Whether a batch whose write lost its connection is stored (its reserved ids present); throws if not askable. */
  async stored(rows: BatchRows): Promise<boolean> {
    const { positions, events } = rows.ids;
    if (!positions.length && !events.length) return false;
    const found = await this.pool.all(STORED_SQL, [JSON.stringify(positions), JSON.stringify(events)]);
    return found.length > 0;
  }

  /** The queued commands of these devices, oldest first (a batch's deliveries, read ahead). */
  queuedOf(deviceIds: readonly number[]): Promise<Array<Record<string, unknown>>> {
    const db = this.store;
    const compiled = qb(db)
      .selectFrom('queued_commands')
      .selectAll()
      .where(anyOf(db, 'deviceId', deviceIds))
      .orderBy('id')
      .compile();
    return this.pool.all(compiled.sql, [...compiled.parameters]);
  }
}

const pooled = new WeakMap<SqlDatabase, PooledIngest>();

/**
 * The store's pooled write path: PostgreSQL with its ingestion pool (db/open.ts); null elsewhere (SQLite: the store
 * itself).
 */
export function pooledIngest(db: SqlDatabase): PooledIngest | null {
  if (db.dialect !== 'postgres') return null;
  const writer = writerOf(db);
  if (!writer) return null;
  let p = pooled.get(db);
  if (!p) pooled.set(db, (p = new PooledIngest(db, writer.pool, writer.lanes)));
  return p;
}

/**
 * The hours of activity this process holds (PostgreSQL's pooled batches) added to the store now, before the dashboard
 * or the scores read them; a failed write is told and its rows stay held (HeldActivity.writeForRead). Nothing on
 * SQLite (a batch adds them in its transaction).
 */
export async function writeHeldActivity(db: SqlDatabase): Promise<void> {
  await pooledIngest(db)?.activity.writeForRead();
}
