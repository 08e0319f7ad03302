// The PostgreSQL store (DATABASE_URL): the SqlDatabase interface over a synchronous connection (db/pgSync.ts), each
// statement kept as a named prepared statement on the connection. The server's statements are all native text
// (prepareNative: kysely's compiled queries, db/repos/query.ts, and the few written for PostgreSQL); INSERTs inside
// a transaction are sent without waiting with ids reserved ahead (reserveId, db/repos/query.ts preparedInsert).
// Nothing is translated (issue #30; the tests' translator retired in session 28): prepare(), SQLite's text, always
// refuses on PostgreSQL; the tests read and write rows with kysely too (server/test/support/testSql.ts).
import { PgSync, type PgSyncOptions } from './pgSync.ts';
import { pgWaitsFromEnv } from './pgWaits.ts';
import type { SqlDatabase, SqlRunResult, SqlStatement } from './sql.ts';

/** A native statement as the connection runs it: its text, kept by the connection under its name. */
interface Native {
  name: string;
  text: string;
}

/** Rows a module holds inside a transaction to write as one statement (db/repos/ingestBatch.ts). */
export interface HeldWrites {
  /** Sends the rows held (without waiting). */
  send(): void;
  /** Forgets them (the transaction or savepoint they belong to is rolled back). */
  drop(): void;
}

export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly client: PgSync;
  private readonly native = new Map<string, Native>();
  private depth = 0;
  /** Ids taken ahead from each table's sequence, for INSERTs sent without waiting inside a transaction. */
  private readonly reserved = new Map<string, number[]>();
  /** Rows held inside the transaction, sent before its next other statement, savepoint or COMMIT. */
  private readonly held = new Set<HeldWrites>();
  /** Refills of a sequence's reserved ids posted and not answered yet, by table (idsReady). */
  private readonly refilling = new Set<string>();
  /** COMMITs posted (transactionPosted) and not answered yet. */
  private commitsOpen = 0;
  /**
   * Waited requests made inside a transaction while a posted COMMIT was unanswered (diagnostics, tests): each held
   * the main thread until that COMMIT's answer, since the connection answers in order.
   */
  waitsBehindCommit = 0;
  /** RASTRO_PG_WAITS: the requests counted by kind and statement (pgWaits.ts; null: not counted). */
  private readonly waits = pgWaitsFromEnv();

  constructor(url: string, options: PgSyncOptions = {}) {
    this.client = new PgSync(url, options);
  }

  prepare(sql: string): SqlStatement {
    throw new Error(
      `SQLite text on PostgreSQL: write the query with kysely (db/repos/query.ts) or natively: ${sql.slice(0, 80)}`,
    );
  }

  private nativeStatement(sql: string): Native {
    const t = { text: sql, name: `n${this.native.size + 1}` };
    this.native.set(sql, t);
    return t;
  }

  /** Native PostgreSQL text from db/repos/query.ts: no translation, `$n` parameters bound in order. */
  prepareNative(sql: string): SqlStatement {
    return new PostgresStatement(this, this.native.get(sql) ?? this.nativeStatement(sql));
  }

  /**
   * Holds rows to send later as one statement (inside a transaction): they go out before any other statement of
   * the transaction (so its reads see them and its writes keep their order), before a savepoint and before COMMIT.
   */
  hold(w: HeldWrites): void {
    this.held.add(w);
  }

  private sendHeld(): void {
    if (this.held.size === 0) return;
    const held = [...this.held];
    this.held.clear();
    for (const w of held) w.send();
  }

  private dropHeld(): void {
    for (const w of this.held) w.drop();
    this.held.clear();
  }

  private waited(): void {
    if (this.depth > 0 && this.commitsOpen > 0) this.waitsBehindCommit++;
  }

  query(t: Native, args: unknown[]): { rows: Array<Record<string, unknown>>; rowCount: number } {
    this.sendHeld();
    this.waited();
    this.waits?.count('waited', this.depth > 0, t.text);
    return this.client.request({ op: 'query', name: t.name, text: t.text, values: bind(args) }, t.text);
  }

  exec(sql: string): void {
    this.sendHeld();
    this.waited();
    this.waits?.count('waited', this.depth > 0, sql);
    this.client.request({ op: 'exec', text: sql }, sql);
  }

  /** Inside a transaction, a write is posted without waiting for its answer. */
  get inTransaction(): boolean {
    return this.depth > 0;
  }

  sendLater(t: Native, args: unknown[]): void {
    this.sendHeld();
    this.waits?.count('later', true, t.text);
    this.client.send({ op: 'query', name: t.name, text: t.text, values: bind(args), later: true });
  }

  /**
   * The next id of the table's sequence, reserved 500 at a time: an INSERT inside a transaction is sent with it
   * without waiting (db/repos/query.ts preparedInsert).
   */
  reserveId(table: string): number {
    let pool = this.reserved.get(table);
    if (!pool || pool.length === 0) {
      this.waited();
      this.waits?.count('waited', this.depth > 0, `reserveId ${table}`);
      const rows = this.client.request({ op: 'query', text: RESERVE_SQL, values: [table, 500] }).rows;
      pool = (rows as Array<{ id: number }>).map((r) => r.id).reverse();
      this.reserved.set(table, pool);
    }
    return pool.pop()!;
  }

  /**
   * Whether each table has `need` ids reserved (a batch begun behind a posted COMMIT must not wait for a
   * reservation: live/batchPipeline.ts). Below three times that, more are asked for without waiting (outside a
   * transaction), added once answered.
   */
  idsReady(tables: readonly string[], need: number): boolean {
    let ready = true;
    for (const table of tables) {
      const have = this.reserved.get(table)?.length ?? 0;
      if (have < need) ready = false;
      if (have >= 3 * need || this.refilling.has(table) || this.depth > 0) continue;
      this.refilling.add(table);
      this.waits?.count('posted', false, `reserveId ${table} (idsReady)`);
      const n = Math.max(500, 3 * need);
      this.client.post({ op: 'query', text: RESERVE_SQL, values: [table, n] }, (err, rows) => {
        this.refilling.delete(table);
        if (err || !rows) return; // reserved when needed, waited
        const pool = this.reserved.get(table) ?? [];
        // taken from the end, smallest first: the new (larger) ids go before the ones left
        this.reserved.set(table, [...(rows as Array<{ id: number }>).map((r) => r.id).reverse(), ...pool]);
      });
    }
    return ready;
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): F {
    const run = (...args: Parameters<F>): ReturnType<F> => {
      const outer = this.depth === 0;
      const savepoint = `s${this.depth}`;
      this.sendHeld(); // what was held before the savepoint is not undone with it
      this.client.send({ op: 'exec', text: outer ? 'BEGIN' : `SAVEPOINT ${savepoint}`, later: true });
      this.waits?.count('later', !outer, outer ? 'BEGIN' : 'SAVEPOINT');
      this.depth++;
      let result: ReturnType<F>;
      try {
        result = fn(...args) as ReturnType<F>;
      } catch (err) {
        this.dropHeld();
        this.depth--;
        this.exec(outer ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw err;
      }
      try {
        this.sendHeld();
      } finally {
        this.depth--;
      }
      try {
        this.exec(outer ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
      } catch (err) {
        // a write sent without waiting failed: the transaction is over (the worker rolled it back)
        if (!outer) this.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw err;
      }
      return result;
    };
    return run as unknown as F;
  }

  /**
   * Runs fn in one transaction whose COMMIT is posted without waiting (the ingestion's batches, issue #30): the
   * main thread is free while PostgreSQL commits, and `done` is called once it answered (null: committed; an error:
   * nothing of the transaction is stored). fn's own failure rolls back and throws as in transaction(). Inside
   * another transaction it is that transaction's part, done at once. `chained`: begun while the previous posted
   * COMMIT is unanswered, it is committed only if that one was, else rolled back and `done` gets an error.
   */
  transactionPosted<T>(
    fn: () => T,
    done: (err: Error | null) => void,
    chained = false,
    late?: (committed: boolean) => void,
  ): T {
    if (this.depth > 0) {
      const nested = this.transaction(fn)();
      done(null);
      return nested;
    }
    this.sendHeld();
    // tracked: the worker reads the transaction's id, and if the connection is lost with the COMMIT's answer asks
    // PostgreSQL on a new one whether it committed (pgWorker.ts), so the callback says what is stored
    // chained (begun while the previous one's COMMIT is in flight): committed only if that one was (pgWorker.ts)
    this.client.send({ op: 'exec', text: 'BEGIN', later: true, track: true, chained });
    if (this.waits) {
      this.waits.batches++;
      this.waits.count('later', true, chained ? 'BEGIN (batch, chained)' : 'BEGIN (batch)');
    }
    this.depth++;
    let result: T;
    try {
      result = fn();
    } catch (err) {
      this.dropHeld();
      this.depth--;
      // not waited: behind a posted COMMIT it would hold the main thread until that one's answer
      this.waits?.count('posted', true, 'ROLLBACK (batch)');
      this.client.post({ op: 'exec', text: 'ROLLBACK' }, () => undefined, 'ROLLBACK');
      throw err;
    }
    try {
      this.sendHeld();
    } finally {
      this.depth--;
    }
    const answered = (err: Error | null) => {
      this.commitsOpen--;
      done(err);
    };
    this.waits?.count('posted', true, 'COMMIT (batch)');
    this.client.post({ op: 'exec', text: 'COMMIT' }, answered, 'COMMIT', late);
    this.commitsOpen++; // answered from the event loop, never within post
    return result;
  }

  /** An ingestion batch written on the pool (db/repos/ingestPooled.ts), counted with the requests (pgWaits.ts). */
  countPooledBatch(): void {
    if (!this.waits) return;
    this.waits.batches++;
    this.waits.count('posted', false, 'batch (pool)');
  }

  /** Waits for the COMMITs posted (transactionPosted) and calls their callbacks. */
  settlePosted(): void {
    this.client.settle();
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

class PostgresStatement implements SqlStatement {
  private plucked = false;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly t: Native,
  ) {}

  run(...args: unknown[]): SqlRunResult {
    // no id: an INSERT that needs one reserves it ahead (reserveId) or says RETURNING and reads it (get)
    return { changes: this.db.query(this.t, args).rowCount, lastInsertRowid: 0 };
  }

  runLater(...args: unknown[]): void {
    if (this.db.inTransaction) this.db.sendLater(this.t, args);
    else this.run(...args);
  }

  get(...args: unknown[]): unknown {
    const row = this.db.query(this.t, args).rows[0];
    return row && this.plucked ? Object.values(row)[0] : row;
  }

  all(...args: unknown[]): unknown[] {
    const rows = this.db.query(this.t, args).rows;
    return this.plucked ? rows.map((r) => Object.values(r)[0]) : rows;
  }

  iterate(...args: unknown[]): IterableIterator<unknown> {
    return this.all(...args)[Symbol.iterator]();
  }

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }
}

/** `$2` ids taken from the sequence of table `$1`. */
const RESERVE_SQL = `SELECT nextval(pg_get_serial_sequence($1::text, 'id')) AS id FROM generate_series(1, $2::int)`;

/** Positional values as given; a bigint as its text, undefined as NULL. */
function bind(args: unknown[]): unknown[] {
  return args.map((v) => (typeof v === 'bigint' ? v.toString() : v === undefined ? null : v));
}
