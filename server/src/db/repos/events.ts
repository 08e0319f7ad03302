// Events (table events) outside the ingestion's prepared statements (db/repos/ingest.ts): single events of the
// API (live/positions.ts), the events another process named (live/deviceStates.ts), the inactivity rule's last
// event and the assistant's period facts.
import { sql, type Selectable } from 'kysely';
import type { EventRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, rowAsync, rowsAsync } from './query.ts';

type StoredEvent = Selectable<EventRow>;

/** An event by id, on the read pool (GET /api/events/{id}). */
export function findEvent(db: SqlDatabase, id: number): Promise<StoredEvent | undefined> {
  return rowAsync(db, qb(db).selectFrom('events').selectAll().where('id', '=', id));
}

const eventsByIdsQuery = (db: SqlDatabase, ids: readonly number[]) =>
  qb(db)
    .selectFrom('events')
    .selectAll()
    .where(anyOf(db, 'id', ids));

/** Events by id on the read pool (the events another process named, live/deviceStates.ts readRemote). */
export async function eventsByIdsAsync(db: SqlDatabase, ids: readonly number[]): Promise<StoredEvent[]> {
  return ids.length ? rowsAsync(db, eventsByIdsQuery(db, ids)) : [];
}

/** A device's newest event of one type (by id), read on the pool (the inactivity sweep's timer). */
export function lastEventOfType(
  db: SqlDatabase,
  deviceId: number,
  type: string,
): Promise<{ eventTime: string; attributes: string } | undefined> {
  return rowAsync(
    db,
    qb(db)
      .selectFrom('events')
      .select(['eventTime', 'attributes'])
      .where('deviceId', '=', deviceId)
      .where('type', '=', type)
      .orderBy('id', 'desc')
      .limit(1),
  );
}

/**
 * Per device, how many events of `type` happened in [from, to) and the largest `value` (SQL over the events'
 * columns, db/sql.ts jsonField) among them; the most first. Read on the pool (the assistant's request).
 */
export function eventCountsByDevice(
  db: SqlDatabase,
  type: string,
  value: string,
  from: string,
  to: string,
): Promise<Array<{ deviceId: number; n: number; top: number | null }>> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('events')
      .select([
        'deviceId',
        (eb) => eb.fn.countAll<number>().as('n'),
        sql<number | null>`max(${sql.raw(value)})`.as('top'),
      ])
      .where('type', '=', type)
      .where('eventTime', '>=', from)
      .where('eventTime', '<', to)
      .groupBy('deviceId')
      .orderBy('n', 'desc'),
  );
}

/**
 * Each value of `code` (SQL over the events' columns) a device's events of `type` had in [from, to), first time;
 * read on the pool (the assistant's request).
 */
export function firstEventTimesByCode(
  db: SqlDatabase,
  code: string,
  deviceId: number,
  type: string,
  from: string,
  to: string,
): Promise<Array<{ code: string | null; at: string }>> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('events')
      .select([sql<string | null>`${sql.raw(code)}`.as('code'), (eb) => eb.fn.min('eventTime').as('at')])
      .where('deviceId', '=', deviceId)
      .where('type', '=', type)
      .where('eventTime', '>=', from)
      .where('eventTime', '<', to)
      .groupBy(sql.raw(code)),
  );
}
