// Where a repository's query meets the store (docs/decisions/41-kysely-repositories.md): each query is built once
// with kysely's typed builder, compiled for the store's dialect (SQLite or PostgreSQL, no translation) and run as
// native SQL. Only this module executes. The asynchronous runners (rowsAsync, writeAsync, inTransaction, a prepared
// query's allAsync/getAsync…) run on PostgreSQL's pools (db/pool.ts: postgres.js connections) and on SQLite's
// connection behind an async mutex; the synchronous ones (rows, row, write, a prepared query's all/get/run) are
// SQLite's only: PostgreSQL's store has no synchronous statement and refuses them (db/postgres.ts, session 38).
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
  type CompiledQuery,
  type Dialect,
  type InsertQueryBuilder,
  type InsertResult,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database } from '../schema.ts';
import { apiWriterOf, readerOf, type NativeRunner, type WriteAnswer } from '../pool.ts';
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

function prepare(
  handle: SqlDatabase,
  query: Compilable<unknown>,
  compiled: CompiledQuery = query.compile(),
): { stmt: SqlStatement; values: unknown[] } {
  if (txOf(handle)?.run) refuseSync();
  const db = storeOf(handle);
  let byText = prepared.get(db);
  if (!byText) prepared.set(db, (byText = new Map()));
  let stmt = byText.get(compiled.sql);
  if (!stmt) byText.set(compiled.sql, (stmt = db.prepareNative(compiled.sql)));
  return { stmt, values: bindable(compiled.parameters) };
}

/**
 * Refuses a PostgreSQL store on a synchronous path that only SQLite may take (issue #30, session 36: the live
 * cache's synchronous reload, the ingestion's synchronous reads and flushNow, SQLite's batch fast path), before it
 * does anything: on PostgreSQL every statement goes through the pool (its store has no synchronous statement).
 */
export function syncSqliteOnly(db: SqlDatabase, what: string): void {
  if (db.dialect !== 'sqlite')
    throw new Error(`${what} is SQLite's synchronous path: on PostgreSQL use its asynchronous twin`);
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

/** Every row the query answers, read on the store's read pool (a read only: see db/pool.ts). */
export async function rowsAsync<R>(db: SqlDatabase, query: Compilable<R>): Promise<R[]> {
  if (txOf(db) || db.dialect === 'sqlite') return (await runAsync(db, query, false)).rows as R[];
  const compiled = query.compile();
  return (await readerOf(db).all(compiled.sql, bindable(compiled.parameters))) as R[];
}

/** The first row the query answers, if any, read on the store's read pool. */
export async function rowAsync<R>(db: SqlDatabase, query: Compilable<R>): Promise<R | undefined> {
  return (await rowsAsync(db, query))[0];
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

/**
 * The store's statement of this text, prepared at its first run: the prepared queries below are made at start-up on
 * both stores, and run synchronously only on SQLite (PostgreSQL's store refuses at that first run: db/postgres.ts).
 */
function lazyNative(db: SqlDatabase, text: string): SqlStatement {
  let stmt: SqlStatement | undefined;
  const get = () => (stmt ??= db.prepareNative(text));
  const lazy: SqlStatement = {
    run: (...args) => get().run(...args),
    runLater: (...args) => get().runLater(...args),
    get: (...args) => get().get(...args),
    all: (...args) => get().all(...args),
    iterate: (...args) => get().iterate(...args),
    pluck(toggle) {
      get().pluck(toggle);
      return lazy;
    },
  };
  return lazy;
}

/** A typed query compiled once with a placeholder per name, and how to bind values by name in its parameters' place. */
function compileOnce<P>(names: readonly string[], build: (p: P) => Compilable<unknown>) {
  const marks = new Map<string, string>(names.map((n) => [`\u0000${n}\u0000`, n]));
  const placeholders = Object.fromEntries([...marks].map(([mark, n]) => [n, mark])) as unknown as P;
  const compiled = build(placeholders).compile();
  const given = compiled.parameters;
  const slots = given.map((v) => (typeof v === 'string' ? marks.get(v) : undefined));
  const missing = names.filter((n) => !slots.includes(n));
  if (missing.length) throw new Error(`preparedQuery: ${missing.join(', ')} not bound by the query`);
  const bind = (values: P): unknown[] => {
    const out = new Array<unknown>(given.length);
    for (let i = 0; i < given.length; i++) {
      const slot = slots[i];
      const value = slot === undefined ? given[i] : (values as Record<string, unknown>)[slot];
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
  const stmt = lazyNative(db, text);
  const reader = readerOf(db);
  // on SQLite the pooled calls wait for an open asynchronous transaction of another caller (inTransaction)
  const sqlite = db.dialect === 'sqlite';
  return {
    all: (values) => stmt.all(...bind(values)) as R[],
    get: (values) => stmt.get(...bind(values)) as R | undefined,
    allAsync: async (values) =>
      (sqlite
        ? await sqliteTurn(db, () => stmt.all(...bind(values)))
        : await reader.all(text, bind(values))) as R[],
    getAsync: async (values) =>
      (sqlite
        ? await sqliteTurn(db, () => stmt.get(...bind(values)))
        : (await reader.all(text, bind(values)))[0]) as R | undefined,
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
  return lazyNative(db, text);
}

/** A row INSERT prepared once (preparedInsert): its new id at once. */
export interface PreparedInsert<P> {
  /** Inserts the row: `lastInsertRowid` its id; `changes` 0 when a unique index skipped it. */
  run(values: P): SqlRunResult;
}

/**
 * A one-row INSERT into a table with an id, compiled and prepared once (the ingestion's positions, events, queued
 * commands in SQLite's synchronous batch: PostgreSQL's batches write their rows as one pooled statement,
 * db/repos/ingestPooled.ts).
 */
export function preparedInsert<P extends object, T extends keyof Database & string>(
  db: SqlDatabase,
  names: ReadonlyArray<keyof P & string>,
  build: (p: P) => InsertQueryBuilder<Database, T, InsertResult>,
): PreparedInsert<P> {
  const { sql: text, bind } = compileOnce(names, build);
  const stmt = lazyNative(db, text);
  return { run: (values) => stmt.run(...bind(values)) };
}

/** Runs a write without RETURNING: the number of rows it changed. */
export function write(db: SqlDatabase, query: Compilable<unknown>): number {
  const { stmt, values } = prepare(db, query);
  return stmt.run(...values).changes;
}

// ---- Asynchronous writes and transactions (issue #30, session 31; docs/decisions/41, "Session 31 (H30A)"). A
// repository function takes a store or a transaction handle alike (both SqlDatabase): the handle inTransaction gives
// runs its asynchronous statements in the transaction. On PostgreSQL those go to one reserved connection of the write
// client (db/pool.ts apiWriterOf: BEGIN … COMMIT, ROLLBACK on a throw, a lost connection failing it with
// DatabaseUnavailable) and the handle refuses synchronous statements (PostgreSQL has none: db/postgres.ts). On SQLite
// the one connection opens a transaction that every other asynchronous statement waits for (an async mutex:
// sqliteTurn), so nothing of another caller interleaves with it through this module; the handle's synchronous
// statements run in it.

const TX = Symbol('transaction');

/** A transaction handle: the store it belongs to and, on PostgreSQL, the runner of its reserved connection. */
interface TxHandle extends SqlDatabase {
  readonly [TX]: { store: SqlDatabase; run: NativeRunner | null; token: object };
}

const txOf = (db: SqlDatabase) => (db as Partial<TxHandle>)[TX];

/** The store behind a handle (the store itself when it is one). */
const storeOf = (db: SqlDatabase): SqlDatabase => txOf(db)?.store ?? db;

/** SQLite's transaction in progress, per store: the others' asynchronous statements wait for `done`. */
interface SqliteHold {
  token: object;
  done: Promise<void>;
}
const holds = new WeakMap<SqlDatabase, SqliteHold>();
/** The transaction whose code is running (its own calls through the plain store do not wait for themselves). */
const current = new AsyncLocalStorage<object>();

/** Runs `fn` on SQLite once no other caller's asynchronous transaction is open (at once when none is). */
async function sqliteTurn<T>(db: SqlDatabase, fn: () => T): Promise<T> {
  const store = storeOf(db);
  for (let hold = holds.get(store); hold && hold.token !== current.getStore(); hold = holds.get(store))
    await hold.done;
  return fn();
}

/** Runs a compiled statement asynchronously: on the transaction, the write client or SQLite's connection. */
async function runAsync(db: SqlDatabase, query: Compilable<unknown>, changes: boolean): Promise<WriteAnswer> {
  const tx = txOf(db);
  const store = storeOf(db);
  const compiled = query.compile();
  const values = bindable(compiled.parameters);
  if (tx?.run) return tx.run(compiled.sql, values);
  if (store.dialect === 'sqlite') {
    const run = () => {
      const { stmt } = prepare(store, query, compiled);
      if ((stmt as { reader?: boolean }).reader) {
        const found = stmt.all(...values) as Array<Record<string, unknown>>;
        return { rows: found, count: found.length };
      }
      return { rows: [], count: stmt.run(...values).changes };
    };
    return tx ? run() : sqliteTurn(store, run);
  }
  const writer = apiWriterOf(store);
  if (!writer) throw new Error('the store has no write client');
  if (!changes) return { rows: await readerOf(store).all(compiled.sql, values), count: 0 };
  return writer.run(compiled.sql, values);
}

/** Runs a write (INSERT, UPDATE, DELETE) without the event loop waiting: the number of rows it changed. */
export async function writeAsync(db: SqlDatabase, query: Compilable<unknown>): Promise<number> {
  return (await runAsync(db, query, true)).count;
}

/** A write with RETURNING: the rows it answers (on PostgreSQL on the write client, not the read pool). */
export async function writeRowsAsync<R>(db: SqlDatabase, query: Compilable<R>): Promise<R[]> {
  return (await runAsync(db, query, true)).rows as R[];
}

/** Inserts one row into a table with an id: its id (0 when a unique index skipped it: ON CONFLICT DO NOTHING). */
export async function insertAsync<T extends keyof Database & string>(
  db: SqlDatabase,
  query: InsertQueryBuilder<Database, T, InsertResult>,
): Promise<number> {
  const [found] = await writeRowsAsync(db, query.returning(sql<number>`id`.as('id')));
  return found ? Number(found.id) : 0;
}

/**
 * Runs `fn` in one transaction of the store: every statement it runs through the handle it gets commits together,
 * or none when it throws (the error is passed on). Called with a handle already (nested), `fn` joins that
 * transaction. See the section's head for each store.
 */
export async function inTransaction<T>(db: SqlDatabase, fn: (tx: SqlDatabase) => Promise<T>): Promise<T> {
  if (txOf(db)) return fn(db);
  if (db.dialect === 'postgres') {
    const writer = apiWriterOf(db);
    if (!writer) throw new Error('the store has no write client');
    return writer.transaction((run) => fn(handle(db, run)));
  }
  const inner = current.getStore();
  const open = holds.get(db);
  if (open && open.token === inner) return fn(db); // a transaction's own code through the plain store
  return sqliteTurn(db, async () => {
    const token = {};
    let release!: () => void;
    holds.set(db, { token, done: new Promise<void>((r) => (release = r)) });
    try {
      db.exec('BEGIN IMMEDIATE');
      try {
        const out = await current.run(token, () => fn(handle(db, null, token)));
        db.exec('COMMIT');
        return out;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      }
    } finally {
      holds.delete(db);
      release();
    }
  });
}

function refuseSync(): never {
  throw new Error(
    'a synchronous statement inside a pooled PostgreSQL transaction: use the asynchronous runners',
  );
}

/** The transaction's handle: the store's shape, its statements sent to the transaction. */
function handle(store: SqlDatabase, run: NativeRunner | null, token: object = {}): SqlDatabase {
  const refuse = refuseSync;
  const tx: TxHandle = {
    [TX]: { store, run, token },
    dialect: store.dialect,
    inTransaction: true,
    prepare: (text) => (run ? refuse() : store.prepare(text)),
    prepareNative: (text) => (run ? refuse() : store.prepareNative(text)),
    transaction: (fn) => (run ? refuse() : store.transaction(fn)),
    exec: (text) => (run ? refuse() : store.exec(text)),
  };
  return tx;
}
