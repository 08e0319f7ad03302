// Positions (table positions) outside the ingestion's prepared statements (ingest.ts): reads and deletions of the
// position API (live/positions.ts), the positions another process named (live/deviceStates.ts), geocoded addresses,
// the activity rebuild (live/activity.ts) and the assistant's period facts (live/assistant*.ts).
import { sql } from 'kysely';
import type { PositionRow } from '../schema.ts';
import type { Selectable, SqlBool } from 'kysely';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, pgArrayLiteral, qb, rowAsync, rows, rowsAsync, syncSqliteOnly, writeAsync } from './query.ts';

type Position = Selectable<PositionRow>;

const positionById = (db: SqlDatabase, id: number) =>
  qb(db).selectFrom('positions').selectAll().where('id', '=', id);

/** A stored position by id, on the read pool (GET /api/positions?id=, a route page's row only JS writes). */
export function findPositionAsync(db: SqlDatabase, id: number): Promise<Position | undefined> {
  return rowAsync(db, positionById(db, id));
}

/** Positions by id, synchronously: SQLite's batch transaction only (live/deviceStates.ts); refused on PostgreSQL. */
export function positionsByIds(db: SqlDatabase, ids: readonly number[]): Position[] {
  syncSqliteOnly(db, 'positionsByIds');
  if (!ids.length) return [];
  return rows(db, positionsByIdsQuery(db, ids));
}

const positionsByIdsQuery = (db: SqlDatabase, ids: readonly number[]) =>
  qb(db)
    .selectFrom('positions')
    .selectAll()
    .where(anyOf(db, 'id', ids));

/** positionsByIds on the read pool (the positions another process named, live/deviceStates.ts readRemote). */
export async function positionsByIdsAsync(db: SqlDatabase, ids: readonly number[]): Promise<Position[]> {
  return ids.length ? rowsAsync(db, positionsByIdsQuery(db, ids)) : [];
}

/**
 * The positions stored at these (device, fix time ISO as stored) pairs, in one statement (issue #30: an ingestion
 * batch's resends and first reports looked for at once, live/ingestSql.ts). The pairs travel as one parameter and
 * each is one probe of the unique index (device, fix time): never the devices × times product, which after a
 * restart (a first report of thousands of devices, each at its own time) would be millions of probes.
 * Synchronous: SQLite's batch transaction only (live/ingestSql.ts readAhead); refused on PostgreSQL.
 */
export function positionsAtFixes(
  db: SqlDatabase,
  pairs: ReadonlyArray<readonly [number, string]>,
): Position[] {
  syncSqliteOnly(db, 'positionsAtFixes');
  return pairs.length ? rows(db, positionsAtFixesQuery(db, pairs)) : [];
}

/** positionsAtFixes on the read pool (a pooled ingestion batch's read-ahead, live/pooledBatches.ts). */
export async function positionsAtFixesAsync(
  db: SqlDatabase,
  pairs: ReadonlyArray<readonly [number, string]>,
): Promise<Position[]> {
  return pairs.length ? rowsAsync(db, positionsAtFixesQuery(db, pairs)) : [];
}

function positionsAtFixesQuery(db: SqlDatabase, pairs: ReadonlyArray<readonly [number, string]>) {
  const key = sql<SqlBool>`(${sql.ref('deviceId')}, ${sql.ref('fixTime')})`;
  const asked =
    db.dialect === 'sqlite'
      ? sql<SqlBool>`${key} in (select json_extract(value, '$[0]'), json_extract(value, '$[1]')
          from json_each(${JSON.stringify(pairs)}))`
      : sql<SqlBool>`${key} in (select * from unnest(${pgArrayLiteral(pairs.map(([id]) => id))}::int[],
          ${pgArrayLiteral(pairs.map(([, time]) => time))}::text[]))`;
  return qb(db).selectFrom('positions').selectAll().where(asked);
}

/** A device's positions with `from` ≤ fixTime ≤ `to` (ISO), in time order, at most `limit`; on the read pool. */
export function positionHistory(
  db: SqlDatabase,
  deviceId: number,
  from: string,
  to: string,
  limit: number,
): Promise<Position[]> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .selectAll()
      .where('deviceId', '=', deviceId)
      .where('fixTime', '>=', from)
      .where('fixTime', '<=', to)
      .orderBy('fixTime')
      .orderBy('id')
      .limit(limit),
  );
}

// The position API's and the geocoder's writes: one autocommitted statement each on the write client (PostgreSQL;
// the one connection behind sqliteTurn on SQLite), so no row lock is held across turns of the event loop.
export async function deletePosition(db: SqlDatabase, id: number): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('positions').where('id', '=', id));
}

/** Removes a device's positions with `from` ≤ fixTime ≤ `to` (ISO). */
export async function deletePositionsBetween(
  db: SqlDatabase,
  deviceId: number,
  from: string,
  to: string,
): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .deleteFrom('positions')
      .where('deviceId', '=', deviceId)
      .where('fixTime', '>=', from)
      .where('fixTime', '<=', to),
  );
}

export async function setPositionAddress(db: SqlDatabase, id: number, address: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('positions').set({ address }).where('id', '=', id));
}

/** A stored position's attributes replaced (PUT /api/devices/:id/accumulators on the latest position). */
export async function setPositionAttributes(db: SqlDatabase, id: number, attributes: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('positions').set({ attributes }).where('id', '=', id));
}

// The activity rebuild's reads (live/activity.ts), on the read pool.
export async function anyPosition(db: SqlDatabase): Promise<boolean> {
  return !!(await rowAsync(db, qb(db).selectFrom('positions').select('id').limit(1)));
}

export async function deviceIdsWithPositions(db: SqlDatabase): Promise<number[]> {
  const found = await rowsAsync(db, qb(db).selectFrom('positions').select('deviceId').distinct());
  return found.map((r) => r.deviceId);
}

/**
 * At most `limit` of a device's positions in time order after `after` (the last one of the previous page, or null),
 * as the activity rules read them: a device's history read page by page, never whole.
 */
export function positionsForActivity(
  db: SqlDatabase,
  deviceId: number,
  after: { fixTime: string; id: number } | null,
  limit: number,
) {
  let q = qb(db)
    .selectFrom('positions')
    .select(['id', 'fixTime', 'speed', 'course', 'attributes'])
    .where('deviceId', '=', deviceId);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('fixTime', '>', after.fixTime),
        eb.and([eb('fixTime', '=', after.fixTime), eb('id', '>', after.id)]),
      ]),
    );
  return rowsAsync(db, q.orderBy('fixTime').orderBy('id').limit(limit));
}

/**
 * `expression` (SQL in the store's dialect over the positions' columns, db/sql.ts jsonField) at a device's first
 * (`asc`) or last position with `from` ≤ fixTime < `to`; undefined when there is none. On the read pool (the
 * assistant's facts, like the two below).
 */
export function positionValueAtEdge(
  db: SqlDatabase,
  expression: string,
  deviceId: number,
  from: string,
  to: string,
  order: 'asc' | 'desc',
): Promise<{ t: number | null } | undefined> {
  return rowAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .select(sql<number | null>`${sql.raw(expression)}`.as('t'))
      .where('deviceId', '=', deviceId)
      .where('fixTime', '>=', from)
      .where('fixTime', '<', to)
      .orderBy('fixTime', order)
      .orderBy('id', order)
      .limit(1),
  );
}

/** Each value of `code` (SQL over the positions' columns) a device reported in [from, to), with its first time. */
export function firstPositionTimesByCode(
  db: SqlDatabase,
  code: string,
  deviceId: number,
  from: string,
  to: string,
): Promise<Array<{ code: string | null; at: string }>> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .select([sql<string | null>`${sql.raw(code)}`.as('code'), (eb) => eb.fn.min('fixTime').as('at')])
      .where('deviceId', '=', deviceId)
      .where('fixTime', '>=', from)
      .where('fixTime', '<', to)
      .groupBy(sql.raw(code)),
  );
}

/** Devices whose speed went over `knots` in [from, to), with their top speed, the fastest first. */
export function topSpeedsOver(
  db: SqlDatabase,
  from: string,
  to: string,
  knots: number,
): Promise<Array<{ deviceId: number; top: number }>> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .select(['deviceId', (eb) => eb.fn.max('speed').as('top')])
      .where('fixTime', '>=', from)
      .where('fixTime', '<', to)
      .where('speed', '>', knots)
      .groupBy('deviceId')
      .orderBy('top', 'desc'),
  );
}

/**
 * At most `limit` positions of the devices with a fix time after `after` (ISO, `…Z`), the newest first: what a page
 * missed while its socket was reconnecting (live/catchup.ts, issue #30). One query on the (deviceId, fixTime) index,
 * on the read pool.
 */
export async function positionsAfter(
  db: SqlDatabase,
  deviceIds: readonly number[],
  after: string,
  limit: number,
): Promise<Position[]> {
  if (deviceIds.length === 0) return [];
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .selectAll()
      .where(anyOf(db, 'deviceId', deviceIds))
      .where('fixTime', '>', after)
      .orderBy('fixTime', 'desc')
      .orderBy('id', 'desc')
      .limit(limit),
  );
}
