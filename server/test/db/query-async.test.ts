// The asynchronous read runners of db/repos/query.ts (issue #30, session 22) on the store the tests run on: SQLite
// (settled promises) or, with RASTRO_TEST_DATABASE_URL, PostgreSQL's read pool (db/pool.ts). The same kysely query
// answers the same rows on both stores, numbers and flags typed alike (PostgreSQL has no synchronous runner since
// session 38; SQLite's synchronous transaction is tested on an SQLite store of its own).
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/db/open.ts';
import { insertObjectAsync } from '../../src/db/repos/objects.ts';
import { preparedQuery, qb, rowAsync, rowsAsync, write } from '../../src/db/repos/query.ts';
import { repoStore } from '../helpers/repoStore.ts';
import { DEVICE_ROW_BASE } from '../support/deviceRow.ts';

const sqliteOwn = openStore(':memory:');
afterAll(() => sqliteOwn.close());
const store = repoStore('query-async');

describe('asynchronous read runners', () => {
  it('rowsAsync and rowAsync answer the rows in order, numbers and flags typed', async () => {
    const db = store.sql;
    for (const name of ['alpha', 'beta', 'gamma'])
      await insertObjectAsync(db, 'devices', {
        name,
        uniqueId: `qa-${name}`,
        disabled: name === 'beta' ? 1 : 0,
      });
    const query = qb(db)
      .selectFrom('devices')
      .select(['id', 'name', 'disabled'])
      .where('uniqueId', 'like', 'qa-%')
      .orderBy('name');
    const pending = rowsAsync(db, query);
    expect(pending).toBeInstanceOf(Promise);
    const answer = await pending;
    expect(answer.map((r) => [r.name, r.disabled])).toEqual([
      ['alpha', 0],
      ['beta', 1],
      ['gamma', 0],
    ]);
    expect(await rowAsync(db, query)).toEqual(answer[0]);
    expect(await rowAsync(db, query.where('name', '=', 'none'))).toBeUndefined();
  });

  it('counts and sums come back as numbers, comparisons as 1/0, on both stores', async () => {
    const db = store.sql;
    const counted = await rowAsync(
      db,
      qb(db)
        .selectFrom('devices')
        .select((eb) => [
          eb.fn.countAll<number>().as('n'),
          sql<number>`sum(${sql.ref('disabled')})`.as('disabledSum'),
          sql<number>`(count(*) > 0)`.as('some'),
        ])
        .where('uniqueId', 'like', 'qa-%'),
    );
    expect(counted).toEqual({ n: 3, disabledSum: 1, some: 1 });
  });

  it('a prepared query runs on the pool with fresh values each time', async () => {
    const db = store.sql;
    const byName = preparedQuery<{ name: string }, { uniqueId: string }>(db, ['name'], (p) =>
      qb(db).selectFrom('devices').select('uniqueId').where('name', '=', p.name),
    );
    const [a, b, none] = await Promise.all([
      byName.getAsync({ name: 'alpha' }),
      byName.allAsync({ name: 'gamma' }),
      byName.allAsync({ name: 'nobody' }),
    ]);
    expect(a).toEqual({ uniqueId: 'qa-alpha' });
    expect(b).toEqual([{ uniqueId: 'qa-gamma' }]);
    expect(none).toEqual([]);
    // the same statement again, another value
    expect(await byName.allAsync({ name: 'beta' })).toEqual([{ uniqueId: 'qa-beta' }]);
  });

  it('a statement the store refuses rejects the promise, it does not throw', async () => {
    const db = store.sql;
    const bad = qb(db)
      .selectFrom('devices')
      .select(sql<number>`no_such_function(1)`.as('x'));
    const pending = rowsAsync(db, bad);
    await expect(pending).rejects.toThrow(/no_such_function/);
    expect(
      await rowAsync(
        db,
        qb(db)
          .selectFrom('devices')
          .select(sql<number>`1`.as('one')),
      ),
    ).toEqual({
      one: 1,
    });
  });

  it("a read asked inside SQLite's synchronous transaction sees the writes made in it", async () => {
    // SQLite's own (PostgreSQL's store has no synchronous transaction since session 38)
    const db = sqliteOwn.sql;
    const mine = qb(db).selectFrom('devices').select('name').where('uniqueId', '=', 'qa-undone');
    let seen: Promise<Array<{ name: string }>> | undefined;
    let one: Promise<{ name: string } | undefined> | undefined;
    const byUniqueId = preparedQuery<{ uniqueId: string }, { name: string }>(db, ['uniqueId'], (p) =>
      qb(db).selectFrom('devices').select('name').where('uniqueId', '=', p.uniqueId),
    );
    let prepared: Promise<{ name: string } | undefined> | undefined;
    // the transaction is rolled back: only a read made inside it can have seen the row
    const undone = db.transaction(() => {
      // a write of the synchronous transaction under test (not testSql's helpers, which are asynchronous)
      write(
        db,
        qb(db)
          .insertInto('devices')
          .values({ ...DEVICE_ROW_BASE, name: 'undone', uniqueId: 'qa-undone' }),
      );
      seen = rowsAsync(db, mine);
      one = rowAsync(db, mine);
      prepared = byUniqueId.getAsync({ uniqueId: 'qa-undone' });
      throw new Error('undo');
    });
    expect(() => undone()).toThrow('undo');
    expect(await seen).toEqual([{ name: 'undone' }]);
    expect(await one).toEqual({ name: 'undone' });
    expect(await prepared).toEqual({ name: 'undone' });
    expect(await rowsAsync(db, mine)).toEqual([]);
  });
});
