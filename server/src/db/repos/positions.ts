// Positions (table positions) outside the ingestion's prepared statements (ingest.ts): reads and deletions of the
// position API (live/positions.ts), the positions another process named (live/deviceStates.ts), geocoded addresses,
// the activity rebuild (live/activity.ts) and the assistant's period facts (live/assistant*.ts).
import { sql } from 'kysely';
import type { PositionRow } from '../schema.ts';
import type { Selectable, SqlBool } from 'kysely';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, eachRow, pgArrayLiteral, qb, row, rowAsync, rows, rowsAsync, write } from './query.ts';

type Position = Selectable<PositionRow>;

const positionById = (db: SqlDatabase, id: number) =>
  qb(db).selectFrom('positions').selectAll().where('id', '=', id);

export function findPosition(db: SqlDatabase, id: number): Position | undefined {
  return row(db, positionById(db, id));
}

/** findPosition on the read pool (GET /api/positions?id=). */
export function findPositionAsync(db: SqlDatabase, id: number): Promise<Position | undefined> {
  return rowAsync(db, positionById(db, id));
}

export function positionsByIds(db: SqlDatabase, ids: readonly number[]): Position[] {
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
 */
export function positionsAtFixes(
  db: SqlDatabase,
  pairs: ReadonlyArray<readonly [number, string]>,
): Position[] {
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

export function deletePosition(db: SqlDatabase, id: number): void {
  write(db, qb(db).deleteFrom('positions').where('id', '=', id));
}

/** Removes a device's positions with `from` ≤ fixTime ≤ `to` (ISO). */
export function deletePositionsBetween(db: SqlDatabase, deviceId: number, from: string, to: string): void {
  write(
    db,
    qb(db)
      .deleteFrom('positions')
      .where('deviceId', '=', deviceId)
      .where('fixTime', '>=', from)
      .where('fixTime', '<=', to),
  );
}

export function setPositionAddress(db: SqlDatabase, id: number, address: string): void {
  write(db, qb(db).updateTable('positions').set({ address }).where('id', '=', id));
}

export function anyPosition(db: SqlDatabase): boolean {
  return !!row(db, qb(db).selectFrom('positions').select('id').limit(1));
}

export function deviceIdsWithPositions(db: SqlDatabase): number[] {
  return rows(db, qb(db).selectFrom('positions').select('deviceId').distinct()).map((r) => r.deviceId);
}

/** A device's positions in time order, as the activity rules read them, one at a time. */
export function positionsForActivity(db: SqlDatabase, deviceId: number) {
  return eachRow(
    db,
    qb(db)
      .selectFrom('positions')
      .select(['fixTime', 'speed', 'course', 'attributes'])
      .where('deviceId', '=', deviceId)
      .orderBy('fixTime')
      .orderBy('id'),
  );
}

/**
 * `expression` (SQL in the store's dialect over the positions' columns, db/sql.ts jsonField) at a device's first
 * (`asc`) or last position with `from` ≤ fixTime < `to`; undefined when there is none.
 */
export function positionValueAtEdge(
  db: SqlDatabase,
  expression: string,
  deviceId: number,
  from: string,
  to: string,
  order: 'asc' | 'desc',
): { t: number | null } | undefined {
  return row(
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
): Array<{ code: string | null; at: string }> {
  return rows(
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
): Array<{ deviceId: number; top: number }> {
  return rows(
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
 * missed while its socket was reconnecting (live/catchup.ts, issue #30). One query on the (deviceId, fixTime) index.
 */
export function positionsAfter(
  db: SqlDatabase,
  deviceIds: readonly number[],
  after: string,
  limit: number,
): Position[] {
  if (deviceIds.length === 0) return [];
  return rows(
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
