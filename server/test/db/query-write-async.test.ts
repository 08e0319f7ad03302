// The asynchronous writes and transactions of db/repos/query.ts (issue #30, session 31) on the store the tests run
// on (SQLite, or PostgreSQL's write client with RASTRO_TEST_DATABASE_URL), and SQLite's async mutex on a store of
// its own: while a transaction is open, another caller's asynchronous statement waits for its end.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/db/open.ts';
import { inTransaction, insertAsync, qb, rowAsync, rowsAsync, writeAsync } from '../../src/db/repos/query.ts';
import type { SqlDatabase } from '../../src/db/sql.ts';
import { repoStore } from '../helpers/repoStore.ts';
import { DEVICE_ROW_BASE } from '../support/deviceRow.ts';

const store = repoStore('query-write-async');

const device = (db: SqlDatabase, uniqueId: string) =>
  qb(db)
    .insertInto('devices')
    .values({ ...DEVICE_ROW_BASE, name: uniqueId, uniqueId });
const named = (db: SqlDatabase, prefix: string) =>
  qb(db).selectFrom('devices').select('uniqueId').where('uniqueId', 'like', `${prefix}%`).orderBy('uniqueId');

describe('asynchronous writes', () => {
  it('insertAsync answers the new id, writeAsync the rows changed', async () => {
    const db = store.sql;
    const id = await insertAsync(db, device(db, 'wa-one'));
    expect(id).toBeGreaterThan(0);
    expect(await rowAsync(db, qb(db).selectFrom('devices').select('uniqueId').where('id', '=', id))).toEqual({
      uniqueId: 'wa-one',
    });
    await insertAsync(db, device(db, 'wa-two'));
    const changed = await writeAsync(
      db,
      qb(db).updateTable('devices').set({ disabled: 1 }).where('uniqueId', 'like', 'wa-%'),
    );
    expect(changed).toBe(2);
    expect(await writeAsync(db, qb(db).deleteFrom('devices').where('uniqueId', '=', 'wa-none'))).toBe(0);
  });

  it('a refused write rejects its promise', async () => {
    const db = store.sql;
    await expect(insertAsync(db, device(db, 'wa-dup'))).resolves.toBeGreaterThan(0);
    await expect(insertAsync(db, device(db, 'wa-dup'))).rejects.toThrow();
  });
});

describe('inTransaction', () => {
  it('commits every statement together; reads through the handle see its writes', async () => {
    const db = store.sql;
    const seen = await inTransaction(db, async (tx) => {
      await insertAsync(tx, device(tx, 'tx-a'));
      await insertAsync(tx, device(tx, 'tx-b'));
      return rowsAsync(tx, named(tx, 'tx-'));
    });
    expect(seen).toEqual([{ uniqueId: 'tx-a' }, { uniqueId: 'tx-b' }]);
    expect(await rowsAsync(db, named(db, 'tx-'))).toEqual(seen);
  });

  it('stores nothing when its function throws, and passes the error on', async () => {
    const db = store.sql;
    await expect(
      inTransaction(db, async (tx) => {
        await insertAsync(tx, device(tx, 'undo-a'));
        await writeAsync(
          tx,
          qb(tx).updateTable('devices').set({ name: 'renamed' }).where('uniqueId', '=', 'tx-a'),
        );
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await rowsAsync(db, named(db, 'undo-'))).toEqual([]);
    expect(
      await rowAsync(db, qb(db).selectFrom('devices').select('name').where('uniqueId', '=', 'tx-a')),
    ).toEqual({ name: 'tx-a' });
  });

  it('a statement the store refuses inside it rolls back what came before', async () => {
    const db = store.sql;
    await expect(
      inTransaction(db, async (tx) => {
        await insertAsync(tx, device(tx, 'bad-a'));
        await insertAsync(tx, device(tx, 'wa-one'));
      }),
    ).rejects.toThrow();
    expect(await rowsAsync(db, named(db, 'bad-'))).toEqual([]);
  });

  it('a nested call joins the outer transaction', async () => {
    const db = store.sql;
    await expect(
      inTransaction(db, async (tx) => {
        await inTransaction(tx, async (inner) => insertAsync(inner, device(inner, 'nest-a')));
        throw new Error('outer');
      }),
    ).rejects.toThrow('outer');
    expect(await rowsAsync(db, named(db, 'nest-'))).toEqual([]);
  });
});

describe("SQLite's async mutex", () => {
  it('a concurrent statement waits for the open transaction, then sees its outcome', async () => {
    const own = openStore(':memory:');
    try {
      const db = own.sql;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const order: string[] = [];
      const tx = inTransaction(db, async (t) => {
        await insertAsync(t, device(t, 'mx-in'));
        await gate; // the transaction stays open across turns of the event loop
        order.push('commit');
      });
      const other = insertAsync(db, device(db, 'mx-out')).then(() => order.push('other write'));
      const read = rowsAsync(db, named(db, 'mx-')).then((r) => {
        order.push('other read');
        return r;
      });
      await new Promise((r) => setTimeout(r, 20));
      expect(order).toEqual([]); // both wait
      release();
      await Promise.all([tx, other]);
      expect(await read).toEqual([{ uniqueId: 'mx-in' }, { uniqueId: 'mx-out' }]);
      expect(order[0]).toBe('commit'); // the read ran after the write (it saw it), once the transaction ended
      expect(order.slice(1).sort()).toEqual(['other read', 'other write']);
    } finally {
      await own.close();
    }
  });

  it('a concurrent write waits and is kept when the open transaction rolls back', async () => {
    const own = openStore(':memory:');
    try {
      const db = own.sql;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const tx = inTransaction(db, async (t) => {
        await insertAsync(t, device(t, 'rb-in'));
        await gate;
        throw new Error('undo');
      });
      const other = insertAsync(db, device(db, 'rb-out'));
      release();
      await expect(tx).rejects.toThrow('undo');
      await other;
      expect(await rowsAsync(db, named(db, 'rb-'))).toEqual([{ uniqueId: 'rb-out' }]);
    } finally {
      await own.close();
    }
  });
});
