// The store's handle every server module is given, implemented twice: by better-sqlite3 (SQLite under DATA_DIR, the
// default; its synchronous members serve SQLite's own paths) and by PostgreSQL's store (db/postgres.ts, when
// DATABASE_URL is set), which has no synchronous statement and refuses every synchronous member (issue #30, session
// 38): on it every statement runs on its pools (db/pool.ts) through db/repos/query.ts's asynchronous runners. The
// repositories of db/repos compile their queries for each dialect with kysely
// (docs/decisions/41-kysely-repositories.md); the migrations have each dialect's own text.

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
  /** Runs a write whose answer the caller does not need (SQLite: run()). */
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
   * Inside a transaction (SQLite's; a pooled transaction's handle, db/repos/query.ts): a read asked for on the read
   * pool then runs in it, so that it sees the transaction's writes. PostgreSQL's store itself: always false.
   */
  readonly inTransaction?: boolean;
  /** A statement in SQLite's dialect, for SQLite-only code. SQLite only: PostgreSQL refuses. */
  prepare(sql: string): SqlStatement;
  /**
   * A statement in the store's own dialect, positional parameters bound as given: what db/repos/query.ts's
   * synchronous runners run, compiled by kysely. SQLite only: PostgreSQL refuses (no synchronous statement).
   */
  prepareNative(sql: string): SqlStatement;
  /** Wraps fn so that calling the result runs it in one transaction (nested calls use savepoints). SQLite only. */
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  /** Runs one or more statements without parameters. SQLite only. */
  exec(sql: string): unknown;
}

/** A unique constraint refused a write: the column it names (SQLite: table.column; PostgreSQL: the index key). */
export function uniqueViolation(err: unknown): string | null {
  // constraint_name: postgres.js's (the pools and the write client)
  const e = err as {
    code?: string;
    message?: string;
    detail?: string;
    constraint_name?: string;
  } | null;
  if (!e || typeof e !== 'object') return null;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    if (/users_email/.test(e.message ?? '')) return 'email';
    return /\.(\w+)$/.exec(e.message ?? '')?.[1] ?? 'value';
  }
  if (e.code === '23505') {
    if (e.constraint_name === 'users_email') return 'email';
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
