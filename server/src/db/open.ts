import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from './schema.ts';
import { migrate } from './migrations.ts';

export interface Store {
  /** Raw handle for hot paths (ingestion) where prepared statements beat the query builder. */
  sqlite: BetterSqlite3.Database;
  db: Kysely<Database>;
  close(): Promise<void>;
}

/** Opens (creating if needed) the embedded SQLite file, in WAL mode, and applies pending migrations. */
export function openStore(file: string): Store {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma('busy_timeout = 5000');
  migrate(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    sqlite,
    db,
    async close() {
      await db.destroy();
    },
  };
}
