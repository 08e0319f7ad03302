// Moving a running installation from SQLite to PostgreSQL (docs/deployment.md): every table of the SQLite file is
// copied, rows and ids as they are, into an empty PostgreSQL store, and each id sequence continues after the
// highest id copied. `npm run copy-to-postgres -w server` (server/src/copyToPostgres.ts) runs it.
import BetterSqlite3 from 'better-sqlite3';
import { TABLES_WITH_ID } from './migrations.ts';
import { openStore } from './open.ts';

export interface CopyReport {
  tables: Array<{ table: string; rows: number }>;
}

const CHUNK = 2000;

/** Copies the SQLite file into the (empty) PostgreSQL database; refuses a target that has users or devices. */
export async function copySqliteToPostgres(
  sqliteFile: string,
  databaseUrl: string,
  progress: (table: string, rows: number) => void = () => undefined,
): Promise<CopyReport> {
  // the SQLite file is first brought to the current version (its pending migrations), then read as it is
  await openStore({ sqliteFile }).close();
  const source = new BetterSqlite3(sqliteFile, { readonly: true, fileMustExist: true });
  const target = openStore({ sqliteFile: '', databaseUrl });
  try {
    // native PostgreSQL text (prepareNative): camelCase names quoted, `$n` parameters
    const used = target.sql
      .prepareNative('SELECT (SELECT COUNT(*) FROM users) + (SELECT COUNT(*) FROM devices) AS n')
      .get() as {
      n: number;
    };
    if (used.n > 0)
      throw new Error('the PostgreSQL database already has users or devices; copy into an empty one');
    const tables = (
      source
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
        .all() as Array<{
        name: string;
      }>
    ).map((t) => t.name);
    const report: CopyReport = { tables: [] };
    for (const table of tables) {
      const columns = (source.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      const insert = target.sql.prepareNative(
        `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) ` +
          `VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      );
      target.sql.prepareNative(`DELETE FROM ${table}`).run(); // the row migrations made (server settings)
      let rows = 0;
      let chunk: unknown[][] = [];
      const flush = () => {
        const batch = chunk;
        chunk = [];
        target.sql.transaction(() => {
          for (const values of batch) insert.runLater(...values);
        })();
      };
      for (const row of source.prepare(`SELECT * FROM ${table}`).raw().iterate() as Iterable<unknown[]>) {
        chunk.push(row);
        rows++;
        if (chunk.length >= CHUNK) {
          flush();
          progress(table, rows);
        }
      }
      if (chunk.length) flush();
      if (TABLES_WITH_ID.has(table)) {
        target.sql
          .prepareNative(
            `SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
          )
          .get();
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
