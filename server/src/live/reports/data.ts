// The reports' reads of the positions and events tables: prepared statements on the raw handle, range scans on
// the (deviceId, fixTime) and (deviceId, eventTime) indexes. Stored dates are `toISOString()` text, so a bound
// in that form compares correctly as a string.
import type { AppContext } from '../../context.ts';
import { parseJson } from '../cache.ts';
import { eventFromRow, positionFromRow, type EventDbRow, type PositionDbRow } from '../json.ts';
import type { Event, Position } from '@rastro/domain';
import type { ReportPosition } from './compute.ts';
import { RouteJsonReader, type RouteCursor } from './routeJson.ts';

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
  readonly route: RouteJsonReader;

  constructor(ctx: AppContext) {
    const db = ctx.store.sql;
    this.route = new RouteJsonReader(db);
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
      coordinates: db.prepare(
        'SELECT longitude, latitude FROM positions WHERE deviceId = ? AND fixTime >= ? AND fixTime < ? ORDER BY fixTime, id LIMIT ?',
      ),
      byIds: db.prepare(
        'SELECT * FROM positions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY fixTime, id',
      ),
    };
  }

  /** The route of one device as JSON texts of its positions (fixTime order, at most `limit`). */
  routeJson(deviceId: number, r: Range, limit = MAX_ROUTE_POSITIONS): string[] {
    return this.route.texts(deviceId, lower(r), upper(r), limit);
  }

  /** One page of a device's route (JSON texts), after the cursor when given. */
  routePage(deviceId: number, r: Range, limit: number, after: RouteCursor | null): string[] {
    return this.route.texts(deviceId, lower(r), upper(r), limit, after);
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

  /** A route as [longitude, latitude] pairs (the combined report). */
  coordinates(deviceId: number, r: Range, limit = MAX_ROUTE_POSITIONS): Array<[number, number]> {
    const rows = this.s.coordinates.all(deviceId, lower(r), upper(r), limit) as Array<{
      longitude: number;
      latitude: number;
    }>;
    return rows.map((p) => [p.longitude, p.latitude]);
  }

  /** Positions by id, as API objects (fixTime order). */
  positionsByIds(ids: number[]): Position[] {
    if (!ids.length) return [];
    return (this.s.byIds.all(JSON.stringify(ids)) as PositionDbRow[]).map(positionFromRow);
  }

  drivers(): Map<string, string> {
    const map = new Map<string, string>();
    for (const d of this.s.drivers.all() as Array<{ uniqueId: string; name: string }>)
      map.set(d.uniqueId, d.name);
    return map;
  }
}
