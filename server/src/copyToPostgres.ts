// `npm run copy-to-postgres -w server` (or `node server/dist/copyToPostgres.js` from the production build): copies
// the SQLite store under DATA_DIR into the empty PostgreSQL database of DATABASE_URL (db/copyStore.ts). Stop the
// server first; start it again with DATABASE_URL set. docs/deployment.md.
import { existsSync } from 'node:fs';
import { loadConfig } from './config.ts';
import { copySqliteToPostgres } from './db/copyStore.ts';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('Set DATABASE_URL to the PostgreSQL database to copy into (docs/configuration.md).');
  process.exit(2);
}
if (!existsSync(config.sqliteFile)) {
  console.error(`No SQLite store at ${config.sqliteFile} (DATA_DIR).`);
  process.exit(2);
}
try {
  const report = await copySqliteToPostgres(config.sqliteFile, config.databaseUrl, (table, rows) =>
    process.stdout.write(`\r${table}: ${rows} rows`.padEnd(60)),
  );
  process.stdout.write('\r'.padEnd(60) + '\r');
  for (const t of report.tables) console.log(`${t.table.padEnd(20)} ${t.rows}`);
  console.log(`Copied ${config.sqliteFile} into PostgreSQL. Start the server with DATABASE_URL set.`);
} catch (err) {
  console.error(`Copy failed: ${(err as Error).message}`);
  process.exit(1);
}
