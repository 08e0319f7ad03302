// Where a repository's query meets the store (docs/decisions/41-kysely-repositories.md): each query is built once
// with kysely's typed builder, compiled for the store's dialect (SQLite or PostgreSQL, no translation), and run
// through the store's synchronous handle as native SQL. Only this module executes. The asynchronous runners
// (rowsAsync, rowAsync, a prepared query's allAsync/getAsync) run the same compiled text on the store's read pool
// (db/pool.ts: postgres.js connections on PostgreSQL, settled promises on SQLite): READ-ONLY, no write and no
// transaction goes there yet (see db/pool.ts). A read asked for inside a transaction of the synchronous store runs
// in it instead (a settled promise), so it sees the transaction's writes; outside one, every write of the
// synchronous store is committed before the next read is sent, so a pooled read sees it.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type Compilable,
  type Dialect,
  type InsertQueryBuilder,
  type InsertResult,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from '../schema.ts';
import { readerOf } from '../pool.ts';
import type { SqlDatabase, SqlDialect, SqlRunResult, SqlStatement } from '../sql.ts';

function dialectOf(name: SqlDialect): Dialect {
  const sqlite = name === 'sqlite';
  return {
    createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => (sqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
    createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
  };
}

/** Builders only: they compile, never connect (DummyDriver). */
const builders: Record<SqlDialect, Kysely<Database>> = {
  sqlite: new Kysely<Database>({ dialect: dialectOf('sqlite') }),
  postgres: new Kysely<Database>({ dialect: dialectOf('postgres') }),
};

/** The typed query builder for the store's dialect. */
export function qb(db: SqlDatabase): Kysely<Database> {
  return builders[db.dialect];
}

/**
 * `column IN (ids)` as one statement text whatever the number of ids: the list travels as one parameter (SQLite: a
 * JSON array read with json_each; PostgreSQL: `= ANY` of an array literal in text, whose type PostgreSQL takes from
 * the column). Not a JavaScript array: postgres.js serializes one only with the server's array types, which the read
 * pool does not fetch (db/pool.ts, `fetch_types`).
 */
export function anyOf(
  db: SqlDatabase,
  column: string,
  ids: readonly number[] | readonly string[],
): RawBuilder<SqlBool> {
  return db.dialect === 'sqlite'
    ? sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`
    : sql<SqlBool>`${sql.ref(column)} = any(${pgArrayLiteral(ids)})`;
}

/** A PostgreSQL array literal of the values, each quoted (`{"1","2"}`; quotes and backslashes escaped): any element type. */
export const pgArrayLiteral = (values: readonly (number | string)[]): string =>
  `{${values.map((v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/** The values of a compiled query as both stores bind them: SQLite binds no booleans, flags are 0/1 on both. */
const bindable = (values: readonly unknown[]) => values.map((v) => (typeof v === 'boolean' ? Number(v) : v));

/** Prepared statements of each store by compiled text (better-sqlite3 statements are reused). */
const prepared = new WeakMap<SqlDatabase, Map<string, SqlStatement>>();

function prepare(db: SqlDatabase, query: Compilable<unknown>): { stmt: SqlStatement; values: unknown[] } {
  const compiled = query.compile();
  let byText = prepared.get(db);
  if (!byText) prepared.set(db, (byText = new Map()));
  let stmt = byText.get(compiled.sql);
  if (!stmt) byText.set(compiled.sql, (stmt = db.prepareNative(compiled.sql)));
  return { stmt, values: bindable(compiled.parameters) };
}

/** Every row the query answers. */
export function rows<R>(db: SqlDatabase, query: Compilable<R>): R[] {
  const { stmt, values } = prepare(db, query);
  return stmt.all(...values) as R[];
}

/** The first row the query answers, if any. */
export function row<R>(db: SqlDatabase, query: Compilable<R>): R | undefined {
  const { stmt, values } = prepare(db, query);
  return stmt.get(...values) as R | undefined;
}

/**
 * A write whose answer the caller does not wait for (outside a transaction): on PostgreSQL posted to the connection
 * and `done` called once it is answered; on SQLite (or inside a transaction) run at once and `done` called before
 * the call returns.
 */
export function writePosted(
  db: SqlDatabase,
  query: Compilable<unknown>,
  done: (err: Error | null) => void,
): void {
  if (!db.runPosted || db.inTransaction) {
    let failed: Error | null = null;
    try {
      write(db, query);
    } catch (err) {
      failed = err instanceof Error ? err : new Error(String(err));
    }
    done(failed);
    return;
  }
  const compiled = query.compile();
  db.runPosted(compiled.sql, bindable(compiled.parameters), done);
}

/** Every row the query answers, read on the store's read pool (a read only: see db/pool.ts). */
export async function rowsAsync<R>(db: SqlDatabase, query: Compilable<R>): Promise<R[]> {
  if (db.inTransaction) return rows(db, query);
  const compiled = query.compile();
  return (await readerOf(db).all(compiled.sql, bindable(compiled.parameters))) as R[];
}

/** The first row the query answers, if any, read on the store's read pool. */
export async function rowAsync<R>(db: SqlDatabase, query: Compilable<R>): Promise<R | undefined> {
  return (await rowsAsync(db, query))[0];
}

/** The query's rows one at a time (SQLite reads them as they are asked for; PostgreSQL answers them all at once). */
export function eachRow<R>(db: SqlDatabase, query: Compilable<R>): IterableIterator<R> {
  const { stmt, values } = prepare(db, query);
  return stmt.iterate(...values) as IterableIterator<R>;
}

/** A query compiled and prepared once, run many times with fresh values (preparedQuery). */
interface PreparedQuery<P, R> {
  all(values: P): R[];
  get(values: P): R | undefined;
  /** all() on the store's read pool (reads only). */
  allAsync(values: P): Promise<R[]>;
  /** get() on the store's read pool (reads only). */
  getAsync(values: P): Promise<R | undefined>;
  /** Runs a write: the rows it changed (SqlStatement.run). */
  run(values: P): SqlRunResult;
  /** A write whose answer is not needed: inside a PostgreSQL transaction sent without waiting (SqlStatement.runLater). */
  runLater(values: P): void;
}

/** A typed query compiled once with a placeholder per name, and how to bind values by name in its parameters' place. */
function compileOnce<P>(
  names: readonly string[],
  build: (p: P) => Compilable<unknown>,
  extra: string[] = [],
) {
  const marks = new Map<string, string>([...names, ...extra].map((n) => [`\u0000${n}\u0000`, n]));
  const placeholders = Object.fromEntries([...marks].map(([mark, n]) => [n, mark])) as unknown as P;
  const compiled = build(placeholders).compile();
  const given = compiled.parameters;
  const slots = given.map((v) => (typeof v === 'string' ? marks.get(v) : undefined));
  const missing = names.filter((n) => !slots.includes(n));
  if (missing.length) throw new Error(`preparedQuery: ${missing.join(', ')} not bound by the query`);
  const bind = (values: P, more?: Record<string, unknown>): unknown[] => {
    const out = new Array<unknown>(given.length);
    for (let i = 0; i < given.length; i++) {
      const slot = slots[i];
      const value =
        slot === undefined
          ? given[i]
          : more && slot in more
            ? more[slot]
            : (values as Record<string, unknown>)[slot];
      out[i] = typeof value === 'boolean' ? Number(value) : value;
    }
    return out;
  };
  return { sql: compiled.sql, slots, bind };
}

/**
 * For hot paths that run one query many times (the ingestion's statements, a report's reads per device and day),
 * where compiling with kysely on every call would cost more than the query: `build` is called once with a
 * placeholder for each name in `names` and returns the typed query; it is compiled and prepared once for this store,
 * and each run binds the values given by name where their placeholders were (the compiled text never changes, so no
 * value may change its shape: lists go through `anyOf`).
 */
export function preparedQuery<P extends object, R>(
  db: SqlDatabase,
  names: ReadonlyArray<keyof P & string>,
  build: (p: P) => Compilable<R>,
): PreparedQuery<P, R> {
  const { sql: text, bind } = compileOnce(names, build);
  const stmt = db.prepareNative(text);
  const reader = readerOf(db);
  return {
    all: (values) => stmt.all(...bind(values)) as R[],
    get: (values) => stmt.get(...bind(values)) as R | undefined,
    allAsync: async (values) =>
      (db.inTransaction ? stmt.all(...bind(values)) : await reader.all(text, bind(values))) as R[],
    getAsync: async (values) =>
      (db.inTransaction ? stmt.get(...bind(values)) : (await reader.all(text, bind(values)))[0]) as
        R | undefined,
    run: (values) => stmt.run(...bind(values)),
    runLater: (values) => stmt.runLater(...bind(values)),
  };
}

/**
 * A statement compiled once whose parameters are exactly `names`, in that order (checked): the store's own
 * prepared statement, called with the values positionally and nothing bound per call (the ingestion's reads and
 * one-column updates, run per position).
 */
export function preparedStatement<P extends object>(
  db: SqlDatabase,
  names: ReadonlyArray<keyof P & string>,
  build: (p: P) => Compilable<unknown>,
): SqlStatement {
  const { sql: text, slots } = compileOnce(names, build);
  if (slots.length !== names.length || slots.some((s, i) => s !== names[i]))
    throw new Error(`preparedStatement: parameters ${slots.join(', ')} are not ${names.join(', ')}`);
  return db.prepareNative(text);
}

/** A row INSERT prepared once (preparedInsert): its new id at once. */
export interface PreparedInsert<P> {
  /**
   * Inserts the row: `lastInsertRowid` its id. `changes` 0 when a unique index skipped it, except on PostgreSQL inside
   * a transaction, where the INSERT is not waited for (1: its reserved id stays unused if it was skipped).
   */
  run(values: P): SqlRunResult;
}

/**
 * A one-row INSERT into a table with an id, compiled and prepared once (the ingestion's positions, events, queued
 * commands). `build` gets the placeholders and `id`: undefined (the table gives the id) or a placeholder to store
 * as the row's id. On PostgreSQL inside a transaction, the id is taken from the table's sequence ahead
 * (SqlDatabase.reserveId, a request only every 500 ids) and the INSERT sent without waiting, so the batch's writes
 * never wait for an answer; elsewhere the INSERT runs at once (PostgreSQL returning the id it got).
 */
export function preparedInsert<P extends object, T extends keyof Database & string>(
  db: SqlDatabase,
  table: T,
  names: ReadonlyArray<keyof P & string>,
  build: (p: P, id: unknown) => InsertQueryBuilder<Database, T, InsertResult>,
): PreparedInsert<P> {
  if (db.dialect === 'sqlite') {
    const { sql: text, bind } = compileOnce(names, (p: P) => build(p, undefined));
    const stmt = db.prepareNative(text);
    return { run: (values) => stmt.run(...bind(values)) };
  }
  const plain = compileOnce(names, (p: P) => build(p, undefined).returning(sql<number>`id`.as('id')));
  const returning = db.prepareNative(plain.sql);
  const ID = '\u0000id\u0000';
  const withId = compileOnce(names, (p: P) => build(p, ID), ['id']);
  const later = db.prepareNative(withId.sql);
  const reserveId = db.reserveId?.bind(db);
  if (!reserveId) throw new Error('preparedInsert: the store reserves no ids');
  return {
    run: (values) => {
      if (db.inTransaction) {
        const id = reserveId(table);
        later.runLater(...withId.bind(values, { id }));
        return { changes: 1, lastInsertRowid: id };
      }
      const r = returning.get(...plain.bind(values)) as { id: number | string } | undefined;
      return r ? { changes: 1, lastInsertRowid: Number(r.id) } : { changes: 0, lastInsertRowid: 0 };
    },
  };
}

/** Runs a write without RETURNING: the number of rows it changed. */
export function write(db: SqlDatabase, query: Compilable<unknown>): number {
  const { stmt, values } = prepare(db, query);
  return stmt.run(...values).changes;
}
