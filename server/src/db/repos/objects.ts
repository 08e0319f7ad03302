// The Traccar object catalogues of the generic CRUD (traccar/crud.ts, resources.ts, listAnswer.ts): devices,
// groups, geofences, drivers, calendars, maintenances, notifications, commands, computed attributes, orders,
// reports, and users' list. One table per call, named by the resource; typed and compiled per dialect.
import { sql, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Database, DeviceRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import type { TableWithId } from './catalog.ts';
import { anyOf, insertAsync, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

/** A stored object as its table holds it (column → value). */
export type ObjectRow = Record<string, unknown>;

export interface ObjectListOptions {
  /** Columns the keyword is looked for in (any of them, case-insensitive, as a substring). */
  search: string[];
  /** The column the list is sorted by, case-insensitive; then by id. */
  sort: string;
  keyword?: string;
  limit?: number;
  offset?: number;
}

type ObjectQuery = SelectQueryBuilder<Database, 'users', ObjectRow>;

/**
 * Devices only: the devices linked to a user, directly or through its groups and their subgroups (`depth` levels of
 * groups in all), as traccar/accessReads.ts linkedDeviceIdsAsync reads them one statement after another; here a
 * condition of the list's own statement (issue #30: the device list in one read on the pool, session 26).
 */
export interface LinkedDevices {
  linkedTo: number;
  depth: number;
}

function linkedDevices(db: SqlDatabase, scope: LinkedDevices) {
  const linked = (type: 'device' | 'group') =>
    qb(db)
      .selectFrom('links')
      .select('propertyId as id')
      .where('ownerType', '=', 'user')
      .where('ownerId', '=', scope.linkedTo)
      .where('propertyType', '=', type);
  // each level of groups one subquery deeper: the groups linked, their children, their grandchildren...
  let level: SelectQueryBuilder<Database, 'links' | 'groups', { id: number }> = linked('group');
  const inGroups = [sql<SqlBool>`${sql.ref('groupId')} in ${level}`];
  for (let depth = 1; depth < scope.depth; depth++) {
    level = qb(db).selectFrom('groups').select('id').where('groupId', 'in', level);
    inGroups.push(sql<SqlBool>`${sql.ref('groupId')} in ${level}`);
  }
  return sql<SqlBool>`(${sql.ref('id')} in ${linked('device')} or ${sql.join(inGroups, sql` or `)})`;
}

/** A LIKE pattern matching `keyword` (lower-cased) anywhere, its own `\ % _` taken literally. */
function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Rows of `table` restricted to `ids` ('all': no restriction) with keyword search, sort and paging; only their id
 * (`only` 'id') or whole. SQLite's LIKE and `COLLATE NOCASE` are PostgreSQL's ILIKE and lower(), as the store
 * has always answered them; `offset` without `limit` is no limit on both. Read on the read pool (db/pool.ts).
 */
export async function listObjects(
  db: SqlDatabase,
  table: TableWithId,
  ids: readonly number[] | 'all' | LinkedDevices,
  opts: ObjectListOptions,
  only: 'id' | 'all' = 'all',
): Promise<ObjectRow[]> {
  if (Array.isArray(ids) && !ids.length) return [];
  const sqlite = db.dialect === 'sqlite';
  // typed as one of them: the compiled text names `table`
  const from = qb(db).selectFrom(table as 'users');
  let q = (only === 'id' ? from.select('id') : from.selectAll()) as unknown as ObjectQuery;
  if (Array.isArray(ids)) q = q.where(anyOf(db, 'id', ids));
  else if (ids !== 'all') q = q.where(linkedDevices(db, ids as LinkedDevices));
  const keyword = opts.keyword?.trim();
  if (keyword) {
    const like = sql.raw(sqlite ? 'like' : 'ilike');
    const pattern = likePattern(keyword);
    const each = opts.search.map((c) => sql<SqlBool>`lower(${sql.ref(c)}) ${like} ${pattern} escape '\\'`);
    q = q.where(sql<SqlBool>`(${sql.join(each, sql` or `)})`);
  }
  q = q
    .orderBy(sqlite ? sql`${sql.ref(opts.sort)} collate nocase` : sql`lower(${sql.ref(opts.sort)})`)
    .orderBy('id');
  if (opts.limit !== undefined || opts.offset !== undefined) {
    // SQLite needs a LIMIT before an OFFSET (-1: none)
    if (opts.limit !== undefined || sqlite) q = q.limit(opts.limit ?? -1);
    q = q.offset(opts.offset ?? 0);
  }
  return rowsAsync(db, q);
}

/** The rows of `table` with these ids, in no particular order (a missing id is left out), on the read pool. */
export function objectsByIds(
  db: SqlDatabase,
  table: TableWithId,
  ids: readonly number[],
): Promise<ObjectRow[]> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom(table as 'users')
      .selectAll()
      .where(anyOf(db, 'id', ids)),
  );
}

/**
 * SQLite only: each row's JSON text as `jsonSql` makes it (traccar/rowJsonSql.ts, SQLite's JSON functions), by id;
 * NULL where the row needs mapping in JS. Read as the pool's reads are (behind an asynchronous transaction).
 */
export function objectJsonByIds(
  db: SqlDatabase,
  table: TableWithId,
  jsonSql: string,
  ids: readonly number[],
): Promise<Array<{ id: number; json: string | null }>> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom(table as 'users')
      .select(['id', sql<string | null>`${sql.raw(jsonSql)}`.as('json')])
      .where(anyOf(db, 'id', ids)),
  );
}

const objectById = (db: SqlDatabase, table: TableWithId, id: number) =>
  qb(db)
    .selectFrom(table as 'users')
    .selectAll()
    .where('id', '=', id);

/** One row by id on the read pool (the CRUD's single-object reads, a share's target: issue #30). */
export function findObjectAsync(
  db: SqlDatabase,
  table: TableWithId,
  id: number,
): Promise<ObjectRow | undefined> {
  return rowAsync(db, objectById(db, table, id));
}

/** Stores a new row without the event loop waiting (the store, or a transaction's handle): its id. */
export function insertObjectAsync(db: SqlDatabase, table: TableWithId, values: ObjectRow): Promise<number> {
  return insertAsync(
    db,
    qb(db)
      .insertInto(table as 'groups')
      .values(values as never),
  );
}

const updateQuery = (db: SqlDatabase, table: TableWithId, id: number, values: ObjectRow) =>
  qb(db)
    .updateTable(table as 'groups')
    .set(values as never)
    .where('id', '=', id);

/** Writes the given columns of one row (nothing when there are none), without the event loop waiting. */
export async function updateObjectAsync(
  db: SqlDatabase,
  table: TableWithId,
  id: number,
  values: ObjectRow,
): Promise<void> {
  if (Object.keys(values).length) await writeAsync(db, updateQuery(db, table, id, values));
}

export async function deleteObject(db: SqlDatabase, table: TableWithId, id: number): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .deleteFrom(table as 'groups')
      .where('id', '=', id),
  );
}

/** Tables that refer to a group, a calendar or a saved command by id (0: none). */
type Reference =
  | { table: 'devices' | 'groups'; column: 'groupId' }
  | { table: 'devices' | 'geofences' | 'notifications' | 'reports'; column: 'calendarId' }
  | { table: 'notifications'; column: 'commandId' };

/** Sets `column` to 0 where it names the removed object `id`. */
export async function clearReference(db: SqlDatabase, ref: Reference, id: number): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .updateTable(ref.table as 'devices')
      .set({ [ref.column]: 0 } as Updateable<DeviceRow>)
      .where(sql.ref(ref.column), '=', id),
  );
}
