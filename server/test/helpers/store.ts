// Which store the server tests run on. By default SQLite (a file under the test's DATA_DIR); with
// RASTRO_TEST_DATABASE_URL set to a PostgreSQL server (CI's second leg, scripts/pg-cluster.sh), each test server
// gets a schema of its own there, named from its DATA_DIR so a restart on the same folder finds its data again.
import { createHash } from 'node:crypto';
import postgres from 'postgres';

export const TEST_DATABASE_URL = process.env.RASTRO_TEST_DATABASE_URL || undefined;

/** The DATABASE_URL of a fresh (or, for the same key, the same) schema; {} on SQLite. */
export async function storeEnv(key: string): Promise<{ DATABASE_URL?: string }> {
  if (!TEST_DATABASE_URL) return {};
  const schema = `t_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  await admin(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { DATABASE_URL: url.toString() };
}

/** Drops the schema storeEnv made for the key. */
export async function dropStore(key: string): Promise<void> {
  if (!TEST_DATABASE_URL) return;
  const schema = `t_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}

/** COUNT(*) of a table in the schema storeEnv made for the key (PostgreSQL only). */
export async function countRows(key: string, table: string): Promise<number> {
  const env = await storeEnv(key);
  const client = postgres(env.DATABASE_URL!, { max: 1, onnotice: () => undefined });
  try {
    const rows = await client.unsafe(`SELECT COUNT(*) AS n FROM ${table}`);
    return Number((rows[0] as unknown as { n: string }).n);
  } finally {
    await client.end();
  }
}

async function admin(sql: string): Promise<void> {
  const client = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => undefined });
  try {
    await client.unsafe(sql);
  } finally {
    await client.end();
  }
}
