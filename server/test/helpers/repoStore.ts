// One store per test file for the repository tests (server/test/db/repos*.test.ts): opened before the file's tests
// on the store the run uses (an in-memory SQLite, or a database of its own on PostgreSQL in CI's second leg) and
// closed and dropped after them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { openStoreAsync, type Store } from '../../src/db/open.ts';
import { dropStore, storeEnv } from './store.ts';

/** The file's store, readable once its tests run (`store.sql`, `store.kind`). */
export function repoStore(name: string): Pick<Store, 'sql' | 'kind'> {
  const key = `${name}-${randomUUID()}`;
  let store: Store | undefined;
  beforeAll(async () => {
    store = await openStoreAsync({ sqliteFile: ':memory:', databaseUrl: (await storeEnv(key)).DATABASE_URL });
  });
  afterAll(async () => {
    await store?.close();
    await dropStore(key);
  });
  const opened = () => {
    if (!store) throw new Error('the repository store opens before the tests');
    return store;
  };
  return {
    get sql() {
      return opened().sql;
    },
    get kind() {
      return opened().kind;
    },
  };
}
