// The server's start-up migrates PostgreSQL on a connection of its own (db/migrations.ts migratePostgresAsync,
// issue #30 session 31): two processes starting together apply each entry once (advisory lock 7231001), the
// version ends at the last entry, and a store opened afterwards finds nothing to do.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgresAsync, migrations } from '../../src/db/migrations.ts';
import { openStore, openStoreAsync, type Store } from '../../src/db/open.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

const key = `migrate-async-${randomUUID()}`;
let url: string;
const stores: Store[] = [];
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await dropStore(key);
});

describe('migrations on their own connection', () => {
  it('two at once on an empty schema apply every entry once; a store opened afterwards has nothing to do', async () => {
    await Promise.all([migratePostgresAsync(url), migratePostgresAsync(url)]);
    const store = await openStoreAsync({ sqliteFile: '', databaseUrl: url });
    stores.push(store);
    const versions = store.sql.prepareNative('SELECT version FROM rastro_schema').all() as Array<{
      version: number;
    }>;
    expect(versions).toEqual([{ version: migrations.length }]);
    const devices = store.sql.prepareNative('SELECT COUNT(*) AS n FROM devices').get() as { n: number };
    expect(devices.n).toBe(0);
    // the synchronous path agrees: nothing left to apply
    const again = openStore({ sqliteFile: '', databaseUrl: url });
    stores.push(again);
    expect(again.sql.prepareNative('SELECT version FROM rastro_schema').all()).toEqual(versions);
  });
});
