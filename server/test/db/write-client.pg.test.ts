// Faults of PostgreSQL's write client (issue #30, session 31; db/pool.ts apiWriterOf, db/repos/query.ts inTransaction):
// a transaction whose connection is terminated fails with DatabaseUnavailable and stores nothing, and the next
// one works; a transaction in which a refused statement was caught stores nothing and fails (PostgreSQL answers
// its COMMIT with a ROLLBACK: ported in session 37 from the retired synchronous store's test); a synchronous statement through a pooled transaction's handle is refused (it would run on another
// connection, outside the transaction).
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoreAsync, type Store } from '../../src/db/open.ts';
import { inTransaction, insertAsync, qb, row, rowsAsync } from '../../src/db/repos/query.ts';
import { DatabaseUnavailable } from '../../src/db/sql.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { DEVICE_ROW_BASE } from '../support/deviceRow.ts';
import { untilAvailable } from '../support/untilAvailable.ts';

const key = `write-client-${randomUUID()}`;
let store: Store;
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  store = await openStoreAsync({ sqliteFile: '', databaseUrl: (await storeEnv(key)).DATABASE_URL! });
});
afterAll(async () => {
  await store?.close();
  await dropStore(key);
});

const named = (prefix: string) =>
  qb(store.sql).selectFrom('devices').select('uniqueId').where('uniqueId', 'like', `${prefix}%`);

describe("PostgreSQL's write client", () => {
  it('a transaction whose connection is terminated fails with DatabaseUnavailable and stores nothing', async () => {
    const db = store.sql;
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => undefined });
    try {
      const failed = inTransaction(db, async (tx) => {
        await insertAsync(
          tx,
          qb(tx)
            .insertInto('devices')
            .values({ ...DEVICE_ROW_BASE, name: 'cut', uniqueId: 'cut-a' }),
        );
        const [me] = await rowsAsync(tx, qb(tx).selectNoFrom(sql<number>`pg_backend_pid()`.as('pid')));
        await admin.unsafe('SELECT pg_terminate_backend($1)', [me!.pid]);
        await insertAsync(
          tx,
          qb(tx)
            .insertInto('devices')
            .values({ ...DEVICE_ROW_BASE, name: 'cut', uniqueId: 'cut-b' }),
        );
      });
      await expect(failed).rejects.toBeInstanceOf(DatabaseUnavailable);
      expect(await rowsAsync(db, named('cut-'))).toEqual([]);
      // postgres.js connects again (a call made before it saw the connection close fails too)
      await untilAvailable(() =>
        inTransaction(db, (tx) =>
          insertAsync(
            tx,
            qb(tx)
              .insertInto('devices')
              .values({ ...DEVICE_ROW_BASE, name: 'ok', uniqueId: 'cut-ok' }),
          ),
        ),
      );
      expect(await rowsAsync(db, named('cut-'))).toEqual([{ uniqueId: 'cut-ok' }]);
    } finally {
      await admin.end({ timeout: 1 });
    }
  });

  it('a transaction in which a refused statement was caught fails and stores nothing', async () => {
    const db = store.sql;
    const done = inTransaction(db, async (tx) => {
      await insertAsync(
        tx,
        qb(tx)
          .insertInto('devices')
          .values({ ...DEVICE_ROW_BASE, name: 'caught', uniqueId: 'caught-a' }),
      );
      // refused by PostgreSQL (no such column): the transaction is aborted, the caller goes on
      await rowsAsync(tx, qb(tx).selectNoFrom(sql<number>`nothing`.as('nothing'))).catch(() => undefined);
      return 'returned';
    });
    await expect(done).rejects.toThrow(/rolled back|aborted/);
    expect(await rowsAsync(db, named('caught-'))).toEqual([]);
  });

  it("refuses a synchronous statement through a pooled transaction's handle", async () => {
    const db = store.sql;
    await expect(
      inTransaction(db, async (tx) => row(tx, qb(tx).selectFrom('devices').select('id'))),
    ).rejects.toThrow(/synchronous statement inside a pooled PostgreSQL transaction/);
  });
});
