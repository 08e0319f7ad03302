// The tests' own reads and writes of a store's rows, whichever store it is (SQLite or PostgreSQL), without dialect
// text (issue #30, session 28): each is a kysely query compiled for the store's dialect and run through the same path
// as the server's asynchronous repositories (db/repos/query.ts: qb, rowsAsync, writeAsync, writeRowsAsync). Every
// helper answers a promise (session 36): on PostgreSQL the reads go to the read pool and the writes to the write
// client, never to a synchronous handle (PostgreSQL has none since session 38); on SQLite they run on its connection
// (sqliteTurn). The helpers by table take equality conditions as an object ({ deviceId: 3, type: 'alarm' }; an array
// value is `IN`); anything else is written with the typed builder (all / one).
import { sql, type Compilable, type Kysely } from 'kysely';
import { TABLES_WITH_ID } from '../../src/db/migrations.ts';
import { qb, rowsAsync, writeAsync, writeRowsAsync } from '../../src/db/repos/query.ts';
import type { Database } from '../../src/db/schema.ts';
import type { SqlDatabase } from '../../src/db/sql.ts';

export type Table = keyof Database & string;
type Value = string | number | null;
/** Equality conditions, ANDed: a column's value, or a list of values (IN). */
export type Where = Record<string, Value | readonly Value[]>;
type Row = Record<string, unknown>;

/** Untyped builder for the helpers by table name (the tests name tables and columns as strings). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const loose = (db: SqlDatabase) => qb(db) as unknown as Kysely<any>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function filtered<Q extends { where: (...args: any[]) => Q }>(query: Q, where: Where): Q {
  let q = query;
  for (const [column, value] of Object.entries(where)) {
    if (Array.isArray(value)) q = q.where(column, 'in', value);
    else if (value === null) q = q.where(column, 'is', null);
    else q = q.where(column, '=', value);
  }
  return q;
}

/** Every row of a typed query built for the store's dialect. */
export async function all<R>(db: SqlDatabase, build: (q: Kysely<Database>) => Compilable<R>): Promise<R[]> {
  return rowsAsync(db, build(qb(db)));
}

/** The first row of a typed query, if any. */
export async function one<R>(
  db: SqlDatabase,
  build: (q: Kysely<Database>) => Compilable<R>,
): Promise<R | undefined> {
  return (await rowsAsync(db, build(qb(db))))[0];
}

/** The rows of a table matching `where` (columns: all when none are named), in `orderBy`'s order. */
export async function select<R = Row>(
  db: SqlDatabase,
  table: Table,
  where: Where = {},
  options: { columns?: readonly string[]; orderBy?: readonly string[] } = {},
): Promise<R[]> {
  const from = loose(db).selectFrom(table);
  let q = options.columns ? from.select([...options.columns]) : from.selectAll();
  q = filtered(q, where);
  for (const column of options.orderBy ?? []) {
    const [name, direction] = column.split(' ');
    q = q.orderBy(name, direction === 'desc' ? 'desc' : 'asc');
  }
  return (await rowsAsync(db, q)) as R[];
}

/** The first row of a table matching `where` (select), if any. */
export async function first<R = Row>(
  db: SqlDatabase,
  table: Table,
  where: Where = {},
  options: { columns?: readonly string[]; orderBy?: readonly string[] } = {},
): Promise<R | undefined> {
  return (await select<R>(db, table, where, options))[0];
}

/** COUNT(*) of a table's rows matching `where`. */
export async function count(db: SqlDatabase, table: Table, where: Where = {}): Promise<number> {
  const q = filtered(
    loose(db)
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('n')),
    where,
  );
  const [found] = (await rowsAsync(db, q)) as Array<{ n: number | string }>;
  return Number(found.n);
}

/** Inserts one row: its id (0 for a table without ids, or when `ignore` skipped a row a unique index has). */
export async function insert(
  db: SqlDatabase,
  table: Table,
  values: Row,
  options: { ignore?: boolean } = {},
): Promise<number> {
  let q = loose(db).insertInto(table).values(values);
  if (options.ignore) q = q.onConflict((oc) => oc.doNothing());
  if (!TABLES_WITH_ID.has(table)) {
    await writeAsync(db, q);
    return 0;
  }
  const [r] = (await writeRowsAsync(db, q.returning(sql<number>`id`.as('id')))) as Array<{
    id: number | string;
  }>;
  return r ? Number(r.id) : 0;
}

/** Sets columns of the rows matching `where`: the number of rows changed. */
export async function update(db: SqlDatabase, table: Table, set: Row, where: Where = {}): Promise<number> {
  return writeAsync(db, filtered(loose(db).updateTable(table).set(set), where));
}

/** Deletes the rows matching `where`: the number of rows deleted. */
export async function remove(db: SqlDatabase, table: Table, where: Where = {}): Promise<number> {
  return writeAsync(db, filtered(loose(db).deleteFrom(table), where));
}
