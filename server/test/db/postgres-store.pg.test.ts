// The PostgreSQL store's synchronous interface (db/postgres.ts): writes posted without waiting inside a transaction
// (runLater, INSERTs with ids reserved ahead) either all land with the COMMIT or, when one fails, none does and the
// transaction throws; the connection is usable afterwards; savepoints undo only their part.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/open.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { sql, type Insertable } from 'kysely';
import type { DeviceRow } from '../../src/db/schema.ts';
import { preparedInsert, qb, rows } from '../../src/db/repos/query.ts';
import { all, count as countRows, select } from '../support/testSql.ts';

const key = `store-${randomUUID()}`;
let store: Store;
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  store = openStore({ sqliteFile: '', databaseUrl: (await storeEnv(key)).DATABASE_URL });
});
afterAll(async () => {
  await store?.close();
  await dropStore(key);
});

const count = async () => await countRows(store.sql, 'devices');
/** The server's one-row INSERT (db/repos/query.ts preparedInsert): inside a transaction, an id reserved and sent without waiting. */
const insert = () => {
  const add = preparedInsert<{ name: string; uniqueId: string }, 'devices'>(
    store.sql,
    'devices',
    ['name', 'uniqueId'],
    (p, id) =>
      qb(store.sql)
        .insertInto('devices')
        .values({
          name: p.name,
          uniqueId: p.uniqueId,
          ...(id === undefined ? {} : { id: id as number }),
        } as unknown as Insertable<DeviceRow>),
  );
  const run = (name: string, uniqueId: string) => add.run({ name, uniqueId });
  return { run, runLater: run };
};

describe('PostgreSQL store', () => {
  it('a failing write sent without waiting fails the COMMIT: nothing of the transaction is stored', async () => {
    const add = insert();
    expect(() =>
      store.sql.transaction(() => {
        add.run('A', 'dup-1'); // id reserved, sent without waiting
        add.runLater('B', 'dup-2');
        add.runLater('C', 'dup-1'); // unique uniqueId: refused by PostgreSQL
      })(),
    ).toThrow(/duplicate key|unique/i);
    expect(await count()).toBe(0);
  });

  it('after a failed transaction the next one stores, and its reported ids are the stored ones', async () => {
    const add = insert();
    const ids = store.sql.transaction(() => [
      Number(add.run('D', 'ok-1').lastInsertRowid),
      Number(add.run('E', 'ok-2').lastInsertRowid),
    ])();
    const rows = (await select(
      store.sql,
      'devices',
      {},
      { columns: ['id', 'uniqueId'], orderBy: ['id'] },
    )) as Array<{
      id: number;
      uniqueId: string;
    }>;
    expect(rows).toEqual([
      { id: ids[0], uniqueId: 'ok-1' },
      { id: ids[1], uniqueId: 'ok-2' },
    ]);
    // outside a transaction, run() waits and reports the same way
    expect(Number(add.run('F', 'ok-3').lastInsertRowid)).toBeGreaterThan(ids[1]);
  });

  it('a transaction in which a failed statement was caught still fails at its COMMIT: nothing is stored', async () => {
    const add = insert();
    const before = await count();
    expect(() =>
      store.sql.transaction(() => {
        add.run('J', 'caught-1');
        try {
          // a statement of the synchronous transaction itself (the interface under test), refused by PostgreSQL
          rows(
            store.sql,
            qb(store.sql)
              .selectFrom('devices')
              .select(sql<number>`nothing`.as('nothing')),
          );
        } catch {
          // the live core goes on with the next position after a failed one
        }
      })(),
    ).toThrow(/rolled back|aborted/);
    expect(await count()).toBe(before);
  });

  it('a nested transaction that throws undoes only its own writes', async () => {
    const add = insert();
    const before = await count();
    store.sql.transaction(() => {
      add.run('G', 'outer-1');
      expect(() =>
        store.sql.transaction(() => {
          add.run('H', 'inner-1');
          throw new Error('undo inner');
        })(),
      ).toThrow('undo inner');
      add.runLater('I', 'outer-2');
    })();
    const names = (
      await all(store.sql, (q) =>
        q.selectFrom('devices').select('uniqueId').where('id', '>', 0).orderBy('id'),
      )
    ).map((r) => r.uniqueId);
    expect(await count()).toBe(before + 2);
    expect(names).toContain('outer-1');
    expect(names).toContain('outer-2');
    expect(names).not.toContain('inner-1');
  });
});
