// The PostgreSQL store (DATABASE_URL): the SqlDatabase interface over a synchronous connection (db/pgSync.ts), each
// statement kept as a named prepared statement on the connection. The server's statements are all native text
// (prepareNative: kysely's compiled queries, db/repos/query.ts, and the few written for PostgreSQL).
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

export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly client: PgSync;
  private readonly native = new Map<string, Native>();
  private depth = 0;
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

  query(t: Native, args: unknown[]): { rows: Array<Record<string, unknown>>; rowCount: number } {
    this.waits?.count('waited', this.depth > 0, t.text);
    return this.client.request({ op: 'query', name: t.name, text: t.text, values: bind(args) }, t.text);
  }

  exec(sql: string): void {
    this.waits?.count('waited', this.depth > 0, sql);
    this.client.request({ op: 'exec', text: sql }, sql);
  }

  /** Inside a transaction, a write is posted without waiting for its answer. */
  get inTransaction(): boolean {
    return this.depth > 0;
  }

  sendLater(t: Native, args: unknown[]): void {
    this.waits?.count('later', true, t.text);
    this.client.send({ op: 'query', name: t.name, text: t.text, values: bind(args), later: true });
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): F {
    const run = (...args: Parameters<F>): ReturnType<F> => {
      const outer = this.depth === 0;
      const savepoint = `s${this.depth}`;
      this.client.send({ op: 'exec', text: outer ? 'BEGIN' : `SAVEPOINT ${savepoint}`, later: true });
      this.waits?.count('later', !outer, outer ? 'BEGIN' : 'SAVEPOINT');
      this.depth++;
      let result: ReturnType<F>;
      try {
        result = fn(...args) as ReturnType<F>;
      } catch (err) {
        this.depth--;
        this.exec(outer ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw err;
      }
      this.depth--;
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

  /** An ingestion batch written on the pool (db/repos/ingestPooled.ts), counted with the requests (pgWaits.ts). */
  countPooledBatch(): void {
    if (!this.waits) return;
    this.waits.batches++;
    this.waits.count('posted', false, 'batch (pool)');
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

/** Positional values as given; a bigint as its text, undefined as NULL. */
function bind(args: unknown[]): unknown[] {
  return args.map((v) => (typeof v === 'bigint' ? v.toString() : v === undefined ? null : v));
}
