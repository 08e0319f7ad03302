// The server's start-up migrates PostgreSQL on a connection of its own (db/migrations.ts migratePostgresAsync,
// issue #30 session 31): two processes starting together apply each entry once (advisory lock 7231001), the
// version ends at the last entry, and a store opened afterwards finds nothing to do.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgresAsync, migrations } from '../../src/db/migrations.ts';
import { openStoreAsync, type Store } from '../../src/db/open.ts';
import postgres from 'postgres';
import { qb, rowsAsync } from '../../src/db/repos/query.ts';
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
    const version = async () => {
      const client = postgres(url, { max: 1, onnotice: () => undefined });
      try {
        return [...(await client.unsafe('SELECT version FROM rastro_schema'))];
      } finally {
        await client.end({ timeout: 1 });
      }
    };
    const versions = await version();
    expect(versions).toEqual([{ version: migrations.length }]);
    const devices = await rowsAsync(
      store.sql,
      qb(store.sql)
        .selectFrom('devices')
        .select((e) => e.fn.countAll<number>().as('n')),
    );
    expect(devices).toEqual([{ n: 0 }]);
    // a second start finds nothing left to apply
    const again = await openStoreAsync({ sqliteFile: '', databaseUrl: url });
    stores.push(again);
    expect(await version()).toEqual(versions);
  });
});
