import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, MIGRATE_CONNECT_TIMEOUT_S, migratePostgresAsync } from './migrations.ts';
import { attachReader, attachWriter, PgPool, type PoolOptions } from './pool.ts';
import { PostgresStore } from './postgres.ts';
import type { SqlDatabase } from './sql.ts';

export interface Store {
  /**
   * Every table of the embedded core and the extensions (db/sql.ts): SQLite's connection, or PostgreSQL's store
   * (db/postgres.ts), whose statements all run on its pools through db/repos/query.ts.
   */
  sql: SqlDatabase;
  /** Where it lives, for the health screen: the SQLite file or the PostgreSQL database. */
  kind: 'sqlite' | 'postgres';
  /** Bytes the data takes (SQLite: pages in use; PostgreSQL: pg_database_size, asked on the read pool). */
  sizeBytes(): Promise<number>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** SQLite file (ignored when databaseUrl is set). */
  sqliteFile: string;
  /** postgres://… : keep everything in PostgreSQL instead. */
  databaseUrl?: string;
  /** PostgreSQL's read pool (db/pool.ts): its size and timeouts. */
  pool?: PoolOptions;
}

/** Opens a SQLite file (`:memory:` too) and applies pending migrations: PostgreSQL opens with openStoreAsync. */
export function openStore(sqliteFile: string): Store {
  return openSqliteStore(sqliteFile);
}

/**
 * Opens the configured store (the server's start-up): on PostgreSQL the migrations run on a dedicated connection
 * (db/migrations.ts migratePostgresAsync) before the server listens; a database that cannot be used fails here
 * with one line naming DATABASE_URL and the reason (StoreUnreachable).
 */
export async function openStoreAsync(options: StoreOptions): Promise<Store> {
  if (!options.databaseUrl) return openSqliteStore(options.sqliteFile);
  const url = options.databaseUrl;
  try {
    await migratePostgresAsync(url);
  } catch (err) {
    const reason = connectFailure(err);
    throw reason ? new StoreUnreachable(url, reason) : err;
  }
  return postgresStore(url, options.pool);
}

/** The embedded SQLite file, in WAL mode (created if needed). */
function openSqliteStore(file: string): Store {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma('busy_timeout = 5000');
  migrate(sqlite);
  // better-sqlite3's statements are the SqlStatement shape already; runLater is run (nothing to wait for)
  const proto = Object.getPrototypeOf(sqlite.prepare('SELECT 1')) as { runLater?: unknown };
  if (!proto.runLater)
    proto.runLater = function runLater(this: BetterSqlite3.Statement, ...args: unknown[]) {
      this.run(...args);
    };
  const sql = Object.assign(sqlite, {
    dialect: 'sqlite' as const,
    prepareNative: (text: string) => sqlite.prepare(text),
  }) as unknown as SqlDatabase;
  return {
    sql,
    kind: 'sqlite',
    async sizeBytes() {
      const pages = Number(sqlite.pragma('page_count', { simple: true }) ?? 0);
      return pages * Number(sqlite.pragma('page_size', { simple: true }) ?? 0);
    },
    async close() {
      sqlite.close();
    },
  };
}

/** PostgreSQL could not be reached at start: the one line to print (DATABASE_URL, password masked, and why). */
export class StoreUnreachable extends Error {
  constructor(url: string, reason: string) {
    super(`Cannot use the database DATABASE_URL=${maskUrl(url)}: ${reason}`);
    this.name = 'StoreUnreachable';
  }
}

/** The URL with its password replaced by ***. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/**
 * Connections of a pool of the ingestion's own, one per write lane (live/pooledBatches.ts), on which the API's reads
 * never queue; 0: its batches write on the read pool, SHARED_LANES at once. 0 since session 31: under load its own
 * pool showed no gain and more CPU, the two processes' API p99 worse in every run (decision 41); to re-measure.
 */
const INGEST_CONNECTIONS: number = 0;
const SHARED_LANES = 3;

/** Why a connection could not be made, in words an operator acts on; null: not a connection failure. */
function connectFailure(err: unknown): string | null {
  const e = err as { code?: string; message?: string } | null;
  const code = String(e?.code ?? '');
  const msg = String(e?.message ?? err);
  if (code === '28P01' || code === '28000' || /password authentication|authentication failed/i.test(msg))
    return `authentication failed (${msg})`;
  if (code === '3D000') return `database does not exist (${msg})`;
  if (code === 'CONNECT_TIMEOUT') return `timeout: no answer within ${MIGRATE_CONNECT_TIMEOUT_S} s`;
  if (/^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ECONNRESET|ETIMEDOUT)$/.test(code))
    return `unreachable (${code})`;
  if (/^CONNECTION_/.test(code)) return `unreachable (the connection was closed before PostgreSQL answered)`;
  return null;
}

/** PostgreSQL's store: no connection of its own; its read pool, write client and ingestion lanes (db/pool.ts). */
function postgresStore(url: string, poolOptions: PoolOptions = {}): Store {
  const db = new PostgresStore();
  // the reads that no longer block the event loop (reports, insights): connections made at their first call
  const pool = new PgPool(url, poolOptions);
  attachReader(db, pool);
  // the ingestion's batches write on the read pool, or on connections of their own (INGEST_CONNECTIONS)
  const ingest =
    INGEST_CONNECTIONS > 0
      ? new PgPool(url, { ...poolOptions, size: INGEST_CONNECTIONS, name: 'rastro-ingest' })
      : null;
  attachWriter(db, ingest ?? pool, ingest ? INGEST_CONNECTIONS : SHARED_LANES);
  return {
    sql: db,
    kind: 'postgres',
    async sizeBytes() {
      const [row] = await pool.all('SELECT pg_database_size(current_database()) AS n', []);
      return Number(row?.n ?? 0);
    },
    async close() {
      await Promise.all([pool.close(), ingest?.close()]);
    },
  };
}
