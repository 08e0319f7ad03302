// The synchronous SQL interface every server module uses, implemented twice: by better-sqlite3 (SQLite under
// DATA_DIR, the default) and by a PostgreSQL client that answers synchronously (db/postgres.ts, when DATABASE_URL
// is set). The repositories of db/repos compile their queries for each dialect with kysely, the ingestion's
// statements included, prepared once (docs/decisions/41-kysely-repositories.md); the migrations have each dialect's
// own text. Nothing prepares SQLite text on PostgreSQL (prepare refuses it there; the tests' statements are kysely
// queries too since session 28: server/test/support/testSql.ts).

export type SqlDialect = 'sqlite' | 'postgres';

/**
 * The database cannot be reached now (connection lost, PostgreSQL down or not answering in time). Nothing of the
 * failed call was stored; the API answers 503 and OsmAnd positions are answered 503 so trackers send them again.
 */
export class DatabaseUnavailable extends Error {
  readonly code = 'DATABASE_UNAVAILABLE';
  constructor(reason: string) {
    super(`database unavailable: ${reason}`);
    this.name = 'DatabaseUnavailable';
  }
}

export function isDatabaseUnavailable(err: unknown): err is DatabaseUnavailable {
  return err instanceof DatabaseUnavailable;
}

export interface SqlRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface SqlStatement {
  run(...params: unknown[]): SqlRunResult;
  /**
   * Runs a write whose answer the caller does not need. On PostgreSQL inside a transaction it is sent without
   * waiting (a failure fails the transaction's commit); elsewhere it is run().
   */
  runLater(...params: unknown[]): void;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Rows come back as their first column's value. */
  pluck(toggle?: boolean): this;
}

export interface SqlDatabase {
  readonly dialect: SqlDialect;
  /**
   * Inside a transaction (PostgreSQL; on SQLite the read pool is this connection): a read asked for on the read
   * pool then runs here, so that it sees the transaction's writes (db/repos/query.ts).
   */
  readonly inTransaction?: boolean;
  /**
   * A statement in SQLite's dialect, for SQLite-only code: refused on PostgreSQL (nothing is translated). Code for
   * both stores uses prepareNative through db/repos/query.ts.
   */
  prepare(sql: string): SqlStatement;
  /**
   * A statement already in the store's own dialect, with positional parameters (`?` on SQLite, `$n` on
   * PostgreSQL) bound as given: what db/repos/query.ts runs, compiled by kysely. Not translated.
   */
  prepareNative(sql: string): SqlStatement;
  /** Wraps fn so that calling the result runs it in one transaction (nested calls use savepoints). */
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  /** Runs one or more statements without parameters. */
  exec(sql: string): unknown;
}

/** A unique constraint refused a write: the column it names (SQLite: table.column; PostgreSQL: the index key). */
export function uniqueViolation(err: unknown): string | null {
  // constraint: pgSync's error; constraint_name: postgres.js's (the pool's write client)
  const e = err as {
    code?: string;
    message?: string;
    detail?: string;
    constraint?: string;
    constraint_name?: string;
  } | null;
  if (!e || typeof e !== 'object') return null;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    if (/users_email/.test(e.message ?? '')) return 'email';
    return /\.(\w+)$/.exec(e.message ?? '')?.[1] ?? 'value';
  }
  if (e.code === '23505') {
    if ((e.constraint ?? e.constraint_name) === 'users_email') return 'email';
    const key = /Key \((?:lower\()?"?(\w+)"?\)?\)=/.exec(e.detail ?? '')?.[1];
    return key ?? 'value';
  }
  return null;
}

/**
 * SQL for a top-level attribute of a JSON text column, in the store's dialect: its text (`number` false) or its
 * numeric value. The key is part of the statement, so it must be a plain name (letters, digits, `_ . -`).
 */
export function jsonField(dialect: SqlDialect, column: string, key: string, number = false): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(key) || !/^[A-Za-z_][\w.]*$/.test(column))
    throw new Error(`bad JSON field ${key}`);
  if (dialect === 'sqlite') return `json_extract(${column}, '$."${key}"')`;
  return number ? `(${column}::jsonb ->> '${key}')::double precision` : `(${column}::jsonb ->> '${key}')`;
}
