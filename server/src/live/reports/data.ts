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
  routeJson(deviceId: number, r: Range, limit = MAX_ROUTE_POSITIONS): Promise<string[]> {
    return this.route.texts(deviceId, lower(r), upper(r), limit);
  }

  /** One page of a device's route (JSON texts), after the cursor when given. */
  routePage(deviceId: number, r: Range, limit: number, after: RouteCursor | null): Promise<string[]> {
    return this.route.texts(deviceId, lower(r), upper(r), limit, after);
  }

  // The reads below run on the store's read pool (db/pool.ts): a report waiting on PostgreSQL holds up nothing else.

  async positions(deviceId: number, r: Range): Promise<ReportPosition[]> {
    const rows = await this.s.positions.allAsync({ ...span(deviceId, r), limit: Number.MAX_SAFE_INTEGER });
    return rows.map(reportPositionFromRow);
  }

  async firstLast(deviceId: number, r: Range): Promise<[ReportPosition, ReportPosition] | null> {
    const [a, b] = await Promise.all([
      this.s.first.getAsync(span(deviceId, r)),
      this.s.last.getAsync(span(deviceId, r)),
    ]);
    return a && b ? [reportPositionFromRow(a), reportPositionFromRow(b)] : null;
  }

  async maxSpeed(deviceId: number, r: Range): Promise<number> {
    return (await this.s.maxSpeed.getAsync(span(deviceId, r)))?.v ?? 0;
  }

  async events(deviceId: number, r: Range): Promise<Event[]> {
    return (await this.s.events.allAsync(span(deviceId, r))).map(eventFromRow);
  }

  async motionEvents(deviceId: number, r: Range): Promise<Array<{ type: string; position: ReportPosition }>> {
    const rows = await this.s.motion.allAsync(span(deviceId, r));
    return rows.map((row) => ({ type: row.eventType, position: reportPositionFromRow(row) }));
  }

  /** A route as [longitude, latitude] pairs (the combined report). */
  async coordinates(
    deviceId: number,
    r: Range,
    limit = MAX_ROUTE_POSITIONS,
  ): Promise<Array<[number, number]>> {
    const rows = await this.s.coordinates.allAsync({ ...span(deviceId, r), limit });
    return rows.map((p) => [p.longitude, p.latitude]);
  }

  /** Positions by id, as API objects (fixTime order). */
  async positionsByIds(ids: number[]): Promise<Position[]> {
    return (await positionsByIdsInTimeOrder(this.db, ids)).map(positionFromRow);
  }

  async drivers(): Promise<Map<string, string>> {
    return new Map((await allDriverNames(this.db)).map((d) => [d.uniqueId, d.name]));
  }
}
