// The reports' reads of the positions and events tables: prepared statements on the raw handle, range scans on
// the (deviceId, fixTime) and (deviceId, eventTime) indexes. Stored dates are `toISOString()` text, so a bound
// in that form compares correctly as a string.
import type { AppContext } from '../../context.ts';
import { parseJson } from '../cache.ts';
import { positionFromRow, eventFromRow, type EventDbRow, type PositionDbRow } from '../json.ts';
import type { Position, Event } from '@rastro/domain';
import type { ReportPosition } from './compute.ts';

/** report.maxPositions: a route answers at most this many positions per device. */
export const MAX_ROUTE_POSITIONS = 50_000;

/** [from, to] as string bounds: from inclusive, to inclusive (as `< to + 1 ms`). */
export interface Range {
  from: number;
  to: number;
  /** When true, `to` is exclusive (day pieces of a daily summary). */
  toExclusive?: boolean;
}

const lower = (r: Range) => new Date(r.from).toISOString();
const upper = (r: Range) => new Date(r.toExclusive ? r.to : r.to + 1).toISOString();

export function reportPositionFromRow(r: PositionDbRow): ReportPosition {
  return {
    id: r.id,
    deviceId: r.deviceId,
    fixTime: r.fixTime,
    latitude: r.latitude,
    longitude: r.longitude,
    speed: r.speed,
    address: r.address,
    attributes: parseJson(r.attributes),
  };
}

export class ReportData {
  private readonly s;

  constructor(ctx: AppContext) {
    const db = ctx.store.sqlite;
    this.s = {
      positions: db.prepare(
        'SELECT * FROM positions WHERE deviceId = ? AND fixTime >= ? AND fixTime < ? ORDER BY fixTime, id LIMIT ?',
      ),
      first: db.prepare(
        'SELECT * FROM positions WHERE deviceId = ? AND fixTime >= ? AND fixTime < ? ORDER BY fixTime, id LIMIT 1',
      ),
      last: db.prepare(
        'SELECT * FROM positions WHERE deviceId = ? AND fixTime >= ? AND fixTime < ? ORDER BY fixTime DESC, id DESC LIMIT 1',
      ),
      maxSpeed: db.prepare(
        'SELECT MAX(speed) AS v FROM positions WHERE deviceId = ? AND fixTime >= ? AND fixTime < ?',
      ),
      events: db.prepare(
        'SELECT * FROM events WHERE deviceId = ? AND eventTime >= ? AND eventTime < ? ORDER BY eventTime, id',
      ),
      motion: db.prepare(
        `SELECT e.type AS eventType, p.* FROM events e JOIN positions p ON p.id = e.positionId
         WHERE e.deviceId = ? AND e.eventTime >= ? AND e.eventTime < ?
           AND e.type IN ('deviceMoving', 'deviceStopped')
         ORDER BY e.eventTime, e.id`,
      ),
      drivers: db.prepare('SELECT uniqueId, name FROM drivers'),
    };
  }

  routePositions(deviceId: number, r: Range, limit = MAX_ROUTE_POSITIONS): Position[] {
    return (this.s.positions.all(deviceId, lower(r), upper(r), limit) as PositionDbRow[]).map(
      positionFromRow,
    );
  }

  positions(deviceId: number, r: Range): ReportPosition[] {
    const rows = this.s.positions.all(
      deviceId,
      lower(r),
      upper(r),
      Number.MAX_SAFE_INTEGER,
    ) as PositionDbRow[];
    return rows.map(reportPositionFromRow);
  }

  firstLast(deviceId: number, r: Range): [ReportPosition, ReportPosition] | null {
    const a = this.s.first.get(deviceId, lower(r), upper(r)) as PositionDbRow | undefined;
    if (!a) return null;
    const b = this.s.last.get(deviceId, lower(r), upper(r)) as PositionDbRow;
    return [reportPositionFromRow(a), reportPositionFromRow(b)];
  }

  maxSpeed(deviceId: number, r: Range): number {
    const row = this.s.maxSpeed.get(deviceId, lower(r), upper(r)) as { v: number | null } | undefined;
    return row?.v ?? 0;
  }

  events(deviceId: number, r: Range): Event[] {
    return (this.s.events.all(deviceId, lower(r), upper(r)) as EventDbRow[]).map(eventFromRow);
  }

  motionEvents(deviceId: number, r: Range): Array<{ type: string; position: ReportPosition }> {
    const rows = this.s.motion.all(deviceId, lower(r), upper(r)) as Array<
      PositionDbRow & { eventType: string }
    >;
    return rows.map((row) => ({ type: row.eventType, position: reportPositionFromRow(row) }));
  }

  drivers(): Map<string, string> {
    const map = new Map<string, string>();
    for (const d of this.s.drivers.all() as Array<{ uniqueId: string; name: string }>)
      map.set(d.uniqueId, d.name);
    return map;
  }
}
