// A statement refused half way, on both stores (issue #30): a trigger the test installs makes every `op` on `table`
// fail until the returned function is called (SQLite: RAISE(ABORT); PostgreSQL: a plpgsql function raising).
// Used by the atomicity tests of the catalogue, QR check-in and the ingestion's batches.
import postgres from 'postgres';
import type { TestApp } from '../helpers/app.ts';
import { storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

export async function refuseStatements(
  t: TestApp,
  table: string,
  op: 'INSERT' | 'UPDATE' | 'DELETE',
): Promise<() => Promise<void>> {
  const name = `test_refuse_${table}_${op.toLowerCase()}`;
  if (!TEST_DATABASE_URL) {
    t.ctx.store.sql.exec(
      `CREATE TRIGGER ${name} BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    return async () => {
      t.ctx.store.sql.exec(`DROP TRIGGER ${name}`);
    };
  }
  const client = postgres((await storeEnv(t.dir)).DATABASE_URL!, { max: 1, onnotice: () => undefined });
  await client.unsafe(
    `CREATE OR REPLACE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS
       $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
  );
  await client.unsafe(
    `CREATE TRIGGER ${name} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION test_refuse()`,
  );
  return async () => {
    await client.unsafe(`DROP TRIGGER ${name} ON ${table}`);
    await client.end({ timeout: 1 });
  };
}
