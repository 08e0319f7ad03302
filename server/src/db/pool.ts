// The asynchronous read path (issue #30, docs/decisions/41-kysely-repositories.md, session 22): the statements
// db/repos/query.ts compiles with kysely, run without the main thread waiting. On PostgreSQL (DATABASE_URL) a pool
// of postgres.js connections hung on the store (db/postgres.ts, which has no connection of its own since session
// 38); on SQLite the same interface runs the statement through better-sqlite3 and answers a settled promise.
// The read pool runs reads (and the ingestion's one-statement batches: db/repos/ingestPooled.ts); the API's writes
// and transactions run on the write client below (apiWriterOf). A read sees what is committed.
// Faults: each connection of the pool is a postgres.js instance of one socket, so the calls waiting on a connection
// are known. The moment one is lost (terminated, reset, PostgreSQL stopped) every call waiting on it fails at once
// with DatabaseUnavailable (the API answers 503, translated) and a new connection is made in the background; while
// none is up, calls fail at once. A statement running past the statement timeout fails (DatabaseUnavailable), and
// a call whose connection stops answering altogether fails a little after it, its connection replaced.
import postgres from 'postgres';
import { DatabaseUnavailable, type SqlDatabase, type SqlStatement } from './sql.ts';

/** Reads a native statement (the store's dialect, positional parameters) without blocking the event loop. */
interface AsyncReader {
  all(text: string, values: readonly unknown[]): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export interface PoolOptions {
  /** Connections (DATABASE_POOL_SIZE, default 4). */
  size?: number;
  /** The connections' application_name in PostgreSQL (pg_stat_activity; default rastro-pool). */
  name?: string;
  statementTimeoutMs?: number;
  connectTimeoutS?: number;
}

/** Pause between two attempts to connect again. */
const RETRY_MS = 500;
/** How long past the statement timeout a call waits for a connection that does not answer at all. */
const GRACE_MS = 2_000;

// Numbers as SQLite gives them: BIGINT and NUMERIC (SUM,
// COUNT, AVG) as numbers, booleans as 1/0.
const types = {
  int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
  numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
  bool: {
    to: 16,
    from: [16],
    serialize: (x: unknown) => (x ? 't' : 'f'),
    parse: (x: string) => (x === 't' ? 1 : 0),
  },
};

interface Call {
  done: boolean;
  fail(err: Error): void;
}

interface Connection {
  sql: postgres.Sql;
  dead: boolean;
  waiting: Set<Call>;
}

/** SQLSTATEs and client errors that mean the connection is gone. */
function connectionLost(err: unknown): boolean {
  const code = String((err as { code?: string })?.code ?? '');
  return (
    /^(08|57P0)/.test(code) ||
    /^(CONNECTION_|CONNECT_TIMEOUT|ECONNRESET|EPIPE|ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)/.test(
      code,
    )
  );
}

/** A pool of PostgreSQL connections for reads. */
export class PgPool implements AsyncReader {
  private readonly slots: Array<Connection | null>;
  /** A statement running longer fails (PostgreSQL's statement_timeout on each connection). */
  readonly statementTimeoutMs: number;
  private readonly connectTimeoutS: number;
  private readonly name: string;
  /** Connections (the ingestion's pool: its write lanes, live/pooledBatches.ts). */
  readonly size: number;
  private readonly retries = new Set<NodeJS.Timeout>();
  private lastReason = 'not connected yet';
  private closed = false;

  constructor(
    private readonly url: string,
    options: PoolOptions = {},
  ) {
    this.statementTimeoutMs = options.statementTimeoutMs ?? 10_000;
    this.connectTimeoutS = options.connectTimeoutS ?? 10;
    this.name = options.name ?? 'rastro-pool';
    this.size = Math.max(1, options.size ?? 4);
    // postgres.js connects at the first call: a server that never reports opens no connection
    this.slots = Array.from({ length: this.size }, () => this.open());
  }

  private open(): Connection {
    const c: Connection = { dead: false, waiting: new Set(), sql: undefined as unknown as postgres.Sql };
    c.sql = postgres(this.url, {
      max: 1,
      prepare: true,
      onnotice: () => undefined,
      // no array-type lookup as each connection's first statement: postgres.js drops that statement's promise, so
      // when it fails (a backend terminated or a connection reset while connecting) the rejection is unhandled and
      // ends the process (porsager/postgres#1192, #1223); lists are bound as array literals (repos/query.ts anyOf)
      fetch_types: false,
      connect_timeout: this.connectTimeoutS,
      connection: { application_name: this.name, statement_timeout: this.statementTimeoutMs },
      types,
      onclose: () => this.lost(c, 'connection lost'),
    } as postgres.Options<Record<string, postgres.PostgresType>>);
    return c;
  }

  all(text: string, values: readonly unknown[]): Promise<Array<Record<string, unknown>>> {
    if (this.closed) return Promise.reject(new DatabaseUnavailable('the store is closed'));
    let c: Connection | null = null;
    for (const s of this.slots) if (s && !s.dead && (!c || s.waiting.size < c.waiting.size)) c = s;
    if (!c) return Promise.reject(new DatabaseUnavailable(this.lastReason));
    const conn = c;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.lost(conn, 'PostgreSQL did not answer in time'),
        this.statementTimeoutMs + GRACE_MS,
      );
      const call: Call = {
        done: false,
        fail: (err) => {
          call.done = true;
          clearTimeout(timer);
          reject(err);
        },
      };
      conn.waiting.add(call);
      const bound = values.map((v) => (typeof v === 'bigint' ? v.toString() : v === undefined ? null : v));
      conn.sql.unsafe(text, bound as never[], { prepare: true }).then(
        (r) => {
          conn.waiting.delete(call);
          if (call.done) return;
          call.done = true;
          clearTimeout(timer);
          resolve([...r] as Array<Record<string, unknown>>);
        },
        (err: unknown) => {
          const e = err as { code?: string; message?: string };
          const gone = connectionLost(err);
          if (gone) this.lost(conn, String(e?.message ?? err)); // fails this call with the others waiting
          conn.waiting.delete(call);
          if (call.done) return;
          // 57014: statement_timeout (or a cancel): PostgreSQL did not answer in time
          call.fail(
            gone || e?.code === '57014' ? new DatabaseUnavailable(String(e?.message ?? err)) : (err as Error),
          );
        },
      );
    });
  }

  /** The connection is gone: fail everything waiting on it, connect again in the background. */
  private lost(c: Connection, reason: string): void {
    if (c.dead) return;
    c.dead = true;
    for (const call of c.waiting) if (!call.done) call.fail(new DatabaseUnavailable(reason));
    c.waiting.clear();
    void c.sql.end({ timeout: 0 }).catch(() => undefined);
    const i = this.slots.indexOf(c);
    if (i < 0) return;
    this.slots[i] = null;
    this.lastReason = reason;
    this.reconnect(i, 0);
  }

  private reconnect(i: number, delay: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      const c = this.open();
      c.sql`SELECT 1`.then(
        () => {
          if (this.closed || c.dead) {
            if (!c.dead) void c.sql.end({ timeout: 0 }).catch(() => undefined);
            if (!this.closed) this.reconnect(i, RETRY_MS);
            return;
          }
          this.slots[i] = c;
        },
        (err: unknown) => {
          c.dead = true;
          void c.sql.end({ timeout: 0 }).catch(() => undefined);
          this.lastReason = String((err as Error)?.message ?? err);
          this.reconnect(i, RETRY_MS);
        },
      );
    }, delay);
    timer.unref();
    this.retries.add(timer);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
    const open = this.slots.filter((c): c is Connection => !!c && !c.dead);
    for (const c of open) {
      c.dead = true;
      for (const call of c.waiting) if (!call.done) call.fail(new DatabaseUnavailable('the store is closed'));
    }
    await Promise.all(open.map((c) => c.sql.end({ timeout: 5 }).catch(() => undefined)));
  }
}

/** The connections PostgreSQL's ingestion writes its batches on, and how many batches it writes at once. */
interface IngestWriter {
  pool: PgPool;
  lanes: number;
}

const writers = new WeakMap<SqlDatabase, IngestWriter>();

/**
 * Gives the store its ingestion writer (db/open.ts, PostgreSQL): a pool of the ingestion's own (its batches'
 * writes, ids and outcomes: db/repos/ingestPooled.ts), on which the API's reads never queue (session 31), or the
 * read pool itself with fewer lanes than its connections.
 */
export function attachWriter(db: SqlDatabase, pool: PgPool, lanes = pool.size): void {
  writers.set(db, { pool, lanes });
}

/** The store's ingestion writer (PostgreSQL), or undefined (SQLite; a store opened without one). */
export function writerOf(db: SqlDatabase): IngestWriter | undefined {
  return writers.get(db);
}

/** SQLite's connection behind the asynchronous interface: each answer is a settled promise. */
class SettledReader implements AsyncReader {
  private readonly statements = new Map<string, SqlStatement>();

  constructor(private readonly db: SqlDatabase) {}

  all(text: string, values: readonly unknown[]): Promise<Array<Record<string, unknown>>> {
    try {
      let stmt = this.statements.get(text);
      if (!stmt) this.statements.set(text, (stmt = this.db.prepareNative(text)));
      return Promise.resolve(stmt.all(...values) as Array<Record<string, unknown>>);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  async close(): Promise<void> {}
}

const readers = new WeakMap<SqlDatabase, AsyncReader>();

/** Gives the store its pool (db/open.ts, PostgreSQL). */
export function attachReader(db: SqlDatabase, reader: AsyncReader): void {
  readers.set(db, reader);
}

/** The store's asynchronous reads: its pool, or the store itself answering settled promises (SQLite). */
export function readerOf(db: SqlDatabase): AsyncReader {
  let r = readers.get(db);
  if (!r) readers.set(db, (r = new SettledReader(db)));
  return r;
}

// ---- H30A (session 31, issue #30): the API's writes and transactions, asynchronous. Appended here so that the
// read pool above stays as it is. On PostgreSQL a second small postgres.js client of the same URL and options, the
// write connections (2), runs the API's autocommitted writes and its transactions (BEGIN … COMMIT on one reserved
// connection, ROLLBACK when the function throws); a lost connection or a statement past the statement timeout fails
// the call with DatabaseUnavailable (503), and postgres.js connects again at the next call. SQLite has none
// (db/repos/query.ts runs its statements through better-sqlite3, behind an async mutex).

/** A native statement's answer: its rows (RETURNING, SELECT) and how many rows it changed or answered. */
export interface WriteAnswer {
  rows: Array<Record<string, unknown>>;
  count: number;
  /** The command's tag (`COMMIT`, `ROLLBACK`…), where postgres.js gives it. */
  command?: string;
}

/** Runs native statements (the store's dialect, positional parameters) on one connection or on the write client. */
export type NativeRunner = (text: string, values: readonly unknown[]) => Promise<WriteAnswer>;

interface PgWriter {
  run: NativeRunner;
  transaction<T>(fn: (run: NativeRunner) => Promise<T>): Promise<T>;
}

const WRITE_CONNECTIONS = 2;
const apiWriters = new WeakMap<PgPool, PgWriter>();

/** postgres.js's failures as the API reports them: a lost connection or a timeout is DatabaseUnavailable. */
function writeFailure(err: unknown): Error {
  const e = err as { code?: string; message?: string };
  if (connectionLost(err) || e?.code === '57014') return new DatabaseUnavailable(String(e?.message ?? err));
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * One write connection: a postgres.js client of one socket, used by one call at a time (`turn`: an autocommitted
 * write, or a whole transaction), `epoch` moved each time its connection closes.
 */
interface WriteConnection {
  sql: postgres.Sql;
  epoch: number;
  calls: number;
  turn: Promise<unknown>;
}

/** The write client of the store's read pool (PostgreSQL), made at its first use and closed with the pool; null on SQLite. */
export function apiWriterOf(db: SqlDatabase): PgWriter | null {
  const pool = readerOf(db);
  if (!(pool instanceof PgPool)) return null;
  let w = apiWriters.get(pool);
  if (w) return w;
  // the pool's URL and timeouts (private to it: read here, in its own module, so that both clients stay alike)
  const own = pool as unknown as { url: string; connectTimeoutS: number; close(): Promise<void> };
  // Transactions by hand on a client of ONE connection that runs one call at a time: postgres.js's begin() sends its
  // ROLLBACK to a connection that closed and throws outside any promise, and reserve() never answers on a client
  // not connected yet or whose connection closed (3.4.9). A transaction's statements go one at a time and none is
  // sent once `epoch` moved (PostgreSQL ended the transaction with its connection; postgres.js would send it on a
  // new connection, outside it).
  const connect = (c: WriteConnection): postgres.Sql => {
    const client: postgres.Sql = postgres(own.url, {
      max: 1,
      max_lifetime: null, // never closed between a transaction's statements
      prepare: true,
      onnotice: () => undefined,
      fetch_types: false, // as the pool's (porsager/postgres#1192): lists travel as array literals
      connect_timeout: own.connectTimeoutS,
      connection: { application_name: 'rastro-write', statement_timeout: pool.statementTimeoutMs },
      types,
      onclose: () => void (c.sql === client && c.epoch++),
    } as postgres.Options<Record<string, postgres.PostgresType>>);
    return client;
  };
  /** Drops the connection (lost, or not answering) for a new one: nothing waits behind a dead socket. */
  const renew = (c: WriteConnection) => {
    const old = c.sql;
    c.epoch++;
    c.sql = connect(c);
    void old.end({ timeout: 0 }).catch(() => undefined);
  };
  const connections: WriteConnection[] = Array.from({ length: WRITE_CONNECTIONS }, () => {
    const c: WriteConnection = {
      epoch: 0,
      calls: 0,
      turn: Promise.resolve(),
      sql: undefined as unknown as postgres.Sql,
    };
    c.sql = connect(c);
    return c;
  });
  const limit = pool.statementTimeoutMs + GRACE_MS;
  const bound = (values: readonly unknown[]) =>
    values.map((v) => (typeof v === 'bigint' ? v.toString() : v === undefined ? null : v)) as never[];
  /** One statement; one that gets no answer at all (a silent network) fails a little after the statement timeout. */
  const statement = (c: WriteConnection, text: string, values: readonly unknown[]): Promise<WriteAnswer> =>
    new Promise<WriteAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        renew(c);
        reject(new DatabaseUnavailable('PostgreSQL did not answer in time'));
      }, limit);
      c.sql.unsafe(text, bound(values), { prepare: true }).then(
        (r) => {
          clearTimeout(timer);
          resolve({
            rows: [...r] as Array<Record<string, unknown>>,
            count: r.count ?? r.length,
            command: r.command,
          });
        },
        (err: unknown) => {
          clearTimeout(timer);
          // a lost connection is dropped at once (its close may not be seen yet): nothing more is sent on it
          if (connectionLost(err)) renew(c);
          reject(writeFailure(err));
        },
      );
    });
  /** Runs `work` on the connection with the fewest calls, once the calls before it on that connection are over. */
  const onConnection = <T>(work: (c: WriteConnection) => Promise<T>): Promise<T> => {
    let c = connections[0]!;
    for (const other of connections) if (other.calls < c.calls) c = other;
    c.calls++;
    const done = c.turn.then(() => work(c));
    c.turn = done.catch(() => undefined);
    return done.finally(() => void c.calls--);
  };
  w = {
    run: (text, values) => onConnection((c) => statement(c, text, values)),
    transaction: (fn) =>
      onConnection(async (c) => {
        await statement(c, 'BEGIN', []);
        const epoch = c.epoch;
        const alive = () => c.epoch === epoch;
        let queue: Promise<unknown> = Promise.resolve();
        const run: NativeRunner = (text, values) => {
          const next = queue.then(() => {
            if (!alive()) throw new DatabaseUnavailable('connection lost');
            return statement(c, text, values);
          });
          queue = next.catch(() => undefined);
          return next;
        };
        let out: Awaited<ReturnType<typeof fn>>;
        try {
          out = await fn(run);
        } catch (err) {
          await queue;
          if (alive()) await statement(c, 'ROLLBACK', []).catch(() => undefined);
          throw err;
        }
        await queue;
        // a statement refused inside it (its error caught by fn) aborted it: PostgreSQL answers COMMIT with ROLLBACK
        const end = await run('COMMIT', []);
        if (end.command === 'ROLLBACK')
          throw new Error('the transaction was rolled back: a statement in it failed (transaction aborted)');
        return out;
      }),
  };
  apiWriters.set(pool, w);
  const close = own.close.bind(pool);
  own.close = async () => {
    await Promise.all([close(), ...connections.map((c) => c.sql.end({ timeout: 5 }).catch(() => undefined))]);
  };
  return w;
}
