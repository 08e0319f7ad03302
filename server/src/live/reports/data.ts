// The reports' reads of the positions and events tables, through the reports' repository (db/repos/reports.ts,
// prepared once per store). Stored dates are `toISOString()` text, so a bound in that form compares correctly as a
// string.
import type { AppContext } from '../../context.ts';
import { allDriverNames } from '../../db/repos/catalog.ts';
import { positionsByIdsInTimeOrder, prepareReportReads, type ReportReads } from '../../db/repos/reports.ts';
import type { SqlDatabase } from '../../db/sql.ts';
import { parseJson } from '../cache.ts';
import { eventFromRow, positionFromRow, type PositionDbRow } from '../json.ts';
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
const span = (deviceId: number, r: Range) => ({ deviceId, from: lower(r), to: upper(r) });

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
  private readonly s: ReportReads;
  private readonly db: SqlDatabase;
  readonly route: RouteJsonReader;

  constructor(ctx: AppContext) {
    this.db = ctx.store.sql;
    this.route = new RouteJsonReader(this.db);
    this.s = prepareReportReads(this.db);
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
    return this.s.positions
      .all({ ...span(deviceId, r), limit: Number.MAX_SAFE_INTEGER })
      .map(reportPositionFromRow);
  }

  firstLast(deviceId: number, r: Range): [ReportPosition, ReportPosition] | null {
    const a = this.s.first.get(span(deviceId, r));
    const b = a && this.s.last.get(span(deviceId, r));
    return a && b ? [reportPositionFromRow(a), reportPositionFromRow(b)] : null;
  }

  maxSpeed(deviceId: number, r: Range): number {
    return this.s.maxSpeed.get(span(deviceId, r))?.v ?? 0;
  }

  events(deviceId: number, r: Range): Event[] {
    return this.s.events.all(span(deviceId, r)).map(eventFromRow);
  }

  motionEvents(deviceId: number, r: Range): Array<{ type: string; position: ReportPosition }> {
    return this.s.motion
      .all(span(deviceId, r))
      .map((row) => ({ type: row.eventType, position: reportPositionFromRow(row) }));
  }

  /** A route as [longitude, latitude] pairs (the combined report). */
  coordinates(deviceId: number, r: Range, limit = MAX_ROUTE_POSITIONS): Array<[number, number]> {
    return this.s.coordinates.all({ ...span(deviceId, r), limit }).map((p) => [p.longitude, p.latitude]);
  }

  /** Positions by id, as API objects (fixTime order). */
  positionsByIds(ids: number[]): Position[] {
    return positionsByIdsInTimeOrder(this.db, ids).map(positionFromRow);
  }

  drivers(): Map<string, string> {
    return new Map(allDriverNames(this.db).map((d) => [d.uniqueId, d.name]));
  }
}
