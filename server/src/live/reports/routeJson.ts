// A route's positions as their API JSON texts, read page by page in (fixTime, id) order: GET /api/reports/route,
// GET /api/positions with from/to and the history's paged GET /{ns}/route all answer these texts. On SQLite the
// query writes and joins the page's JSON itself (db/repos/route.ts); a row only JS can write the same way (a date
// not in toISOString form, a number stored as text, an infinite one) is mapped by positionJsonText. PostgreSQL
// keeps the JS path: its rows come back as objects anyway, read on the read pool (issue #30), as the cursor and
// the extent.
import { findPositionAsync } from '../../db/repos/positions.ts';
import {
  prepareRoutePageReads,
  routeCursor,
  routeExtent,
  type PageTexts,
  type RouteCursor,
  type RoutePageReads,
} from '../../db/repos/route.ts';
import type { SqlDatabase } from '../../db/sql.ts';
import { routePageRowOf } from '@rastro/domain';
import { positionFromRow, type PositionDbRow } from '../json.ts';

export type { RouteCursor };

/** A stored `toISOString()` date in Jackson's form without re-parsing it (other forms go through Date). */
function jsonDateText(s: string): string {
  if (s.length === 24 && s.charCodeAt(23) === 90 /* Z */) return `"${s.slice(0, 23)}+00:00"`;
  const t = Date.parse(s);
  return Number.isFinite(t) ? `"${new Date(t).toISOString().replace('Z', '+00:00')}"` : 'null';
}

/** Stored JSON text as-is when it is an object (or array), else the fallback. */
function rawJson(text: string | null, open: string, fallback: string): string {
  if (!text) return fallback;
  const t = text.trimStart();
  if (!t.startsWith(open)) return fallback;
  try {
    JSON.parse(t);
    return t;
  } catch {
    return fallback;
  }
}

const num = (n: number) => (Number.isFinite(n) ? String(n) : '0');

/**
 * A position row as its API JSON text (same fields and order as positionFromRow), splicing the stored
 * attributes text instead of parsing and re-serialising it.
 */
export function positionJsonText(r: PositionDbRow): string {
  const attributes =
    r.attributes && r.attributes.charCodeAt(0) === 123 /* { */
      ? r.attributes
      : rawJson(r.attributes, '{', '{}');
  return (
    `{"id":${r.id},"attributes":${attributes},"deviceId":${r.deviceId},` +
    `"protocol":${r.protocol === null ? 'null' : JSON.stringify(r.protocol)},` +
    `"serverTime":${jsonDateText(r.serverTime)},"deviceTime":${jsonDateText(r.deviceTime)},` +
    `"fixTime":${jsonDateText(r.fixTime)},"valid":${r.valid ? 'true' : 'false'},` +
    `"latitude":${num(r.latitude)},"longitude":${num(r.longitude)},"altitude":${num(r.altitude)},` +
    `"speed":${num(r.speed)},"course":${num(r.course)},` +
    `"address":${r.address === null ? 'null' : JSON.stringify(r.address)},"accuracy":${num(r.accuracy)},` +
    `"network":${r.network ? rawJson(r.network, '{', '{}') : 'null'},"geofenceIds":${rawJson(r.geofenceIds, '[', 'null')},` +
    `"outdated":false}`
  );
}

/** A position row as the history's light page row text (domain routePageRow), as positionFromRow maps it. */
const lightRowText = (r: PositionDbRow) => JSON.stringify(routePageRowOf(positionFromRow(r)));

/** One device's positions of a period as JSON texts, in pages (their SQL: db/repos/route.ts). */
export class RouteJsonReader {
  private readonly reads: RoutePageReads;
  private readonly sqlite: boolean;

  constructor(private readonly db: SqlDatabase) {
    this.sqlite = db.dialect === 'sqlite';
    this.reads = prepareRoutePageReads(db);
  }

  /** The position `id` of the device as a cursor, or null when the device has none of that id. */
  async cursor(deviceId: number, id: number): Promise<RouteCursor | null> {
    return (await routeCursor(this.db, deviceId, id)) ?? null;
  }

  /** [west, south, east, north] of the device's positions with lower ≤ fixTime < upper, null when none. */
  async extent(
    deviceId: number,
    lower: string,
    upper: string,
  ): Promise<[number, number, number, number] | null> {
    return (await routeExtent(this.db, deviceId, lower, upper)) ?? null;
  }

  /**
   * At most `limit` positions of the device with lower ≤ fixTime < upper (stored text bounds), after the cursor
   * when given, as their JSON texts in order: pieces of the answer to join with ',' (on SQLite the whole page is
   * one piece, the query having joined the positions' texts; none when the page is empty).
   */
  texts(
    deviceId: number,
    lower: string,
    upper: string,
    limit: number,
    after?: RouteCursor | null,
  ): Promise<string[]> {
    return this.page(this.reads.positions, positionJsonText, deviceId, lower, upper, limit, after);
  }

  /** The same page as the history's light rows (domain routePageRow), pieces to join with ','. */
  rows(
    deviceId: number,
    lower: string,
    upper: string,
    limit: number,
    after?: RouteCursor | null,
  ): Promise<string[]> {
    return this.page(this.reads.light, lightRowText, deviceId, lower, upper, limit, after);
  }

  private async page(
    written: PageTexts,
    byJs: (r: PositionDbRow) => string,
    deviceId: number,
    lower: string,
    upper: string,
    limit: number,
    after?: RouteCursor | null,
  ): Promise<string[]> {
    const from = after && after.fixTime > lower ? after.fixTime : lower;
    const args = [deviceId, from, upper, after?.fixTime ?? '', after?.id ?? 0, limit] as const;
    if (!this.sqlite) return (await this.reads.rows(...args)).map((r) => byJs(r as PositionDbRow));
    const joined = written.joined(...args);
    if (joined !== null) return joined ? [joined] : [];
    // a row of the page only JS can write: row by row
    const rows = written.texts(...args);
    const out = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      out[i] = r.json ?? byJs((await findPositionAsync(this.db, r.id)) as PositionDbRow);
    }
    return out;
  }
}
