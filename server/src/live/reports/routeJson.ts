// A route's positions as their API JSON texts, read page by page in (fixTime, id) order: GET /api/reports/route,
// GET /api/positions with from/to and the history's paged GET /{ns}/route all answer these texts. On SQLite the
// query writes each row's JSON itself (json_object): reading 100,000 rows as JS objects and mapping them to text
// took several times as long (bench/RESULTS.md, "Session 18 – history"). A row only JS can write
// the same way (a date not in toISOString form, a number stored as text, an infinite one) comes back NULL and is
// mapped by positionJsonText. PostgreSQL keeps the JS path: its rows come back as objects anyway.
import type { SqlDatabase, SqlStatement } from '../../db/sql.ts';
import type { PositionDbRow } from '../json.ts';

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

const ISO_GLOB =
  "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'";
const NUMBERS = ['latitude', 'longitude', 'altitude', 'speed', 'course', 'accuracy'];
const DATES = ['serverTime', 'deviceTime', 'fixTime'];

/** Stored JSON text of one kind (object / array), else `fallback` (SQL); json_type only reads valid text. */
const jsonOf = (c: string, type: 'object' | 'array', fallback: string) =>
  `CASE WHEN typeof(${c}) = 'text' AND json_valid(${c}) THEN ` +
  `(CASE WHEN json_type(${c}) = '${type}' THEN json(${c}) ELSE ${fallback} END) ELSE ${fallback} END`;

/** The SQLite expression of a position row's JSON text as positionFromRow gives it, NULL where only JS can say. */
const POSITION_JSON_SQL = (() => {
  const jsOnly = [
    "typeof(id) <> 'integer'",
    "typeof(deviceId) <> 'integer'",
    "typeof(valid) <> 'integer'",
    "typeof(protocol) NOT IN ('text', 'null')",
    "typeof(address) NOT IN ('text', 'null')",
    ...NUMBERS.map(
      (c) => `typeof(${c}) NOT IN ('integer', 'real') OR NOT (abs(${c}) <= 1.7976931348623157e308)`,
    ),
    ...DATES.map((c) => `typeof(${c}) <> 'text' OR ${c} NOT GLOB ${ISO_GLOB}`),
  ];
  const date = (c: string) => `substr(${c}, 1, 23) || '+00:00'`;
  const object = `json_object('id', id, 'attributes', ${jsonOf('attributes', 'object', "json('{}')")},
    'deviceId', deviceId, 'protocol', protocol, 'serverTime', ${date('serverTime')},
    'deviceTime', ${date('deviceTime')}, 'fixTime', ${date('fixTime')},
    'valid', json(CASE WHEN valid <> 0 THEN 'true' ELSE 'false' END),
    'latitude', latitude, 'longitude', longitude, 'altitude', altitude, 'speed', speed, 'course', course,
    'address', address, 'accuracy', accuracy, 'network', CASE WHEN network IS NULL OR network = '' THEN NULL
      ELSE ${jsonOf('network', 'object', "json('{}')")} END,
    'geofenceIds', ${jsonOf('geofenceIds', 'array', 'NULL')}, 'outdated', json('false'))`;
  return `CASE WHEN ${jsOnly.map((c) => `(${c})`).join(' OR ')} THEN NULL ELSE ${object} END`;
})();

/** Where a page starts: after this position (its fix time and id), or at the period's start. */
export interface RouteCursor {
  fixTime: string;
  id: number;
}

/** One device's positions of a period as JSON texts, in pages. */
export class RouteJsonReader {
  private readonly page: SqlStatement;
  private readonly byId: SqlStatement;
  private readonly cursorOf: SqlStatement;
  private readonly sqlite: boolean;

  constructor(db: SqlDatabase) {
    this.sqlite = db.dialect === 'sqlite';
    // `fixTime > ? OR id > ?` after the cursor's own fix time: index range on (deviceId, fixTime), then the tie
    const select = this.sqlite ? `${POSITION_JSON_SQL} AS json, id` : '*';
    this.page = db.prepare(
      `SELECT ${select} FROM positions WHERE deviceId = ? AND fixTime >= ? AND fixTime < ? ` +
        'AND (fixTime > ? OR id > ?) ORDER BY fixTime, id LIMIT ?',
    );
    this.byId = db.prepare('SELECT * FROM positions WHERE id = ?');
    this.cursorOf = db.prepare('SELECT fixTime, id FROM positions WHERE id = ? AND deviceId = ?');
  }

  /** The position `id` of the device as a cursor, or null when the device has none of that id. */
  cursor(deviceId: number, id: number): RouteCursor | null {
    return (this.cursorOf.get(id, deviceId) as RouteCursor | undefined) ?? null;
  }

  /**
   * At most `limit` positions of the device with lower ≤ fixTime < upper (stored text bounds), after the cursor
   * when given, as their JSON texts.
   */
  texts(deviceId: number, lower: string, upper: string, limit: number, after?: RouteCursor | null): string[] {
    const from = after && after.fixTime > lower ? after.fixTime : lower;
    const args = [deviceId, from, upper, after?.fixTime ?? '', after?.id ?? 0, limit];
    if (!this.sqlite) return (this.page.all(...args) as PositionDbRow[]).map(positionJsonText);
    const rows = this.page.all(...args) as Array<{ json: string | null; id: number }>;
    const out = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      out[i] = r.json ?? positionJsonText(this.byId.get(r.id) as PositionDbRow);
    }
    return out;
  }
}
