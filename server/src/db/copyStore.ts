// Moving a running installation from SQLite to PostgreSQL (docs/deployment.md): every table of the SQLite file is
// copied, rows and ids as they are, into an empty PostgreSQL store, and each id sequence continues after the
// highest id copied. `npm run copy-to-postgres -w server` (server/src/copyToPostgres.ts) runs it.
import BetterSqlite3 from 'better-sqlite3';
import { TABLES_WITH_ID } from './migrations.ts';
import { openStore, openStoreAsync } from './open.ts';
import { apiWriterOf, readerOf } from './pool.ts';

export interface CopyReport {
  tables: Array<{ table: string; rows: number }>;
}

/** Rows read from SQLite between progress reports, and at most this many parameters in one INSERT. */
const CHUNK = 2000;
const MAX_PARAMETERS = 30_000;

/**
 * Copies the SQLite file into the (empty) PostgreSQL database; refuses a target that has users or devices. The
 * target is written on the store's asynchronous write client (db/pool.ts), many rows per INSERT (issue #30: nothing
 * goes through the synchronous store).
 */
export async function copySqliteToPostgres(
  sqliteFile: string,
  databaseUrl: string,
  progress: (table: string, rows: number) => void = () => undefined,
): Promise<CopyReport> {
  // the SQLite file is first brought to the current version (its pending migrations), then read as it is
  await openStore(sqliteFile).close();
  const source = new BetterSqlite3(sqliteFile, { readonly: true, fileMustExist: true });
  const target = await openStoreAsync({ sqliteFile: '', databaseUrl });
  try {
    const writer = apiWriterOf(target.sql)!;
    // native PostgreSQL text: camelCase names quoted, `$n` parameters
    const [used] = await readerOf(target.sql).all(
      'SELECT (SELECT COUNT(*) FROM users) + (SELECT COUNT(*) FROM devices) AS n',
      [],
    );
    if (Number(used?.n) > 0)
      throw new Error('the PostgreSQL database already has users or devices; copy into an empty one');
    const tables = (
      source
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
        .all() as Array<{ name: string }>
    ).map((t) => t.name);
    const report: CopyReport = { tables: [] };
    for (const table of tables) {
      const columns = (source.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      const insert = (rows: unknown[][]) => {
        const tuples = rows.map(
          (_, r) => `(${columns.map((_c, i) => `$${r * columns.length + i + 1}`).join(', ')})`,
        );
        return writer.run(
          `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`,
          rows.flat(),
        );
      };
      await writer.run(`DELETE FROM ${table}`, []); // the row migrations made (server settings)
      let rows = 0;
      let chunk: unknown[][] = [];
      const flush = async () => {
        for (let i = 0; i < chunk.length; i += perInsert) await insert(chunk.slice(i, i + perInsert));
        chunk = [];
      };
      for (const row of source.prepare(`SELECT * FROM ${table}`).raw().iterate() as Iterable<unknown[]>) {
        chunk.push(row);
        rows++;
        if (chunk.length >= CHUNK) {
          await flush();
          progress(table, rows);
        }
      }
      if (chunk.length) await flush();
      if (TABLES_WITH_ID.has(table)) {
        await writer.run(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
          [],
        );
      }
      progress(table, rows);
      report.tables.push({ table, rows });
    }
    return report;
  } finally {
    source.close();
    await target.close();
  }
}
