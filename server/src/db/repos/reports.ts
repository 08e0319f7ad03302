// The reports' reads of the positions and events tables (live/reports/data.ts): range scans on the
// (deviceId, fixTime) and (deviceId, eventTime) indexes. Stored dates are `toISOString()` text, so bounds in that
// form compare correctly as strings. A report runs these once per device or per device and day, so they are
// compiled and prepared once per store (preparedQuery), never per call, and the reports run them on the read pool
// (allAsync/getAsync, db/pool.ts); the route's JSON texts are read by live/reports/routeJson.ts.
import { sql, type Selectable } from 'kysely';
import type { EventRow, PositionRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, preparedQuery, qb, rowsAsync } from './query.ts';

type Position = Selectable<PositionRow>;

/** A device and a period: from inclusive, to exclusive (ISO). */
interface Span extends Record<string, unknown> {
  deviceId: number;
  from: string;
  to: string;
}

/** The same with at most `limit` rows. */
interface LimitedSpan extends Span {
  limit: number;
}

const SPAN = ['deviceId', 'from', 'to'] as const;
/**
 * `LIMIT 1` written in the text: SQLite reads a bound LIMIT through a slower path (measured: the first and last
 * positions of 100 devices took 3.7 times as long with `LIMIT ?`).
 */
const ONE = sql.lit(1);
const LIMITED = [...SPAN, 'limit'] as const;

/** The reports' per-device reads, prepared once per store. */
export function prepareReportReads(db: SqlDatabase) {
  const positions = (p: Span) =>
    qb(db)
      .selectFrom('positions')
      .where('deviceId', '=', p.deviceId)
      .where('fixTime', '>=', p.from)
      .where('fixTime', '<', p.to);
  return {
    /** The positions in time order, at most `limit`. */
    positions: preparedQuery<LimitedSpan, Position>(db, LIMITED, (p) =>
      positions(p).selectAll().orderBy('fixTime').orderBy('id').limit(p.limit),
    ),
    /** The first position of the period. */
    first: preparedQuery<Span, Position>(db, SPAN, (p) =>
      positions(p).selectAll().orderBy('fixTime').orderBy('id').limit(ONE),
    ),
    /** The last position of the period. */
    last: preparedQuery<Span, Position>(db, SPAN, (p) =>
      positions(p).selectAll().orderBy('fixTime', 'desc').orderBy('id', 'desc').limit(ONE),
    ),
    /** The top speed of the period (null without positions). */
    maxSpeed: preparedQuery<Span, { v: number | null }>(db, SPAN, (p) =>
      positions(p).select((eb) => eb.fn.max<number | null>('speed').as('v')),
    ),
    /** [longitude, latitude] of the positions in time order, at most `limit`. */
    coordinates: preparedQuery<LimitedSpan, { longitude: number; latitude: number }>(db, LIMITED, (p) =>
      positions(p).select(['longitude', 'latitude']).orderBy('fixTime').orderBy('id').limit(p.limit),
    ),
    /** The events of the period in time order. */
    events: preparedQuery<Span, Selectable<EventRow>>(db, SPAN, (p) =>
      qb(db)
        .selectFrom('events')
        .selectAll()
        .where('deviceId', '=', p.deviceId)
        .where('eventTime', '>=', p.from)
        .where('eventTime', '<', p.to)
        .orderBy('eventTime')
        .orderBy('id'),
    ),
    /** The stored deviceMoving/deviceStopped events of the period with the positions they point to. */
    motion: preparedQuery<Span, Position & { eventType: string }>(db, SPAN, (p) =>
      qb(db)
        .selectFrom('events as e')
        .innerJoin('positions as p', 'p.id', 'e.positionId')
        .select('e.type as eventType')
        .selectAll('p')
        .where('e.deviceId', '=', p.deviceId)
        .where('e.eventTime', '>=', p.from)
        .where('e.eventTime', '<', p.to)
        .where('e.type', 'in', ['deviceMoving', 'deviceStopped'])
        .orderBy('e.eventTime')
        .orderBy('e.id'),
    ),
  };
}

export type ReportReads = ReturnType<typeof prepareReportReads>;

/** Positions by id in time order (the combined report's event positions), read on the read pool. */
export async function positionsByIdsInTimeOrder(
  db: SqlDatabase,
  ids: readonly number[],
): Promise<Position[]> {
  if (!ids.length) return [];
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .selectAll()
      .where(anyOf(db, 'id', ids))
      .orderBy('fixTime')
      .orderBy('id'),
  );
}
