// The PostgreSQL store (DATABASE_URL) since session 38 (issue #30, docs/decisions/41-kysely-repositories.md): no
// connection of its own and no synchronous statement. It is the key its pools hang on — the read pool and the write
// client (db/pool.ts attachReader, apiWriterOf) and the ingestion's write lanes (attachWriter) — and says its
// dialect; every statement runs on those pools through db/repos/query.ts's asynchronous runners. The synchronous
// members of SqlDatabase (SQLite's: better-sqlite3) refuse here with a clear error, so a synchronous path reached on
// PostgreSQL fails at once instead of blocking the main thread.
import type { SqlDatabase, SqlStatement } from './sql.ts';

/** What a synchronous call on the PostgreSQL store throws. */
function refuse(what: string): never {
  throw new Error(
    `PostgreSQL has no synchronous statements (${what}): use the asynchronous runners of db/repos/query.ts`,
  );
}

export class PostgresStore implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  /** Never inside a synchronous transaction: a transaction is a pooled connection's (query.ts inTransaction). */
  readonly inTransaction = false;

  prepare(sql: string): SqlStatement {
    return refuse(`prepare: ${sql.slice(0, 80)}`);
  }

  prepareNative(sql: string): SqlStatement {
    return refuse(`prepareNative: ${sql.slice(0, 80)}`);
  }

  transaction<F extends (...args: never[]) => unknown>(_fn: F): F {
    return refuse('transaction');
  }

  exec(sql: string): unknown {
    return refuse(`exec: ${sql.slice(0, 80)}`);
  }
}
