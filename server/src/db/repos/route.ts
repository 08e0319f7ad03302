// A device's route read page by page in (fixTime, id) order (live/reports/routeJson.ts): GET /api/reports/route,
// GET /api/positions with from/to and the history's paged GET /{ns}/route. On SQLite the page's statement writes
// the positions' API JSON itself and joins them: one text per page, no JS object or string per row (reading
// 100,000 rows as JS objects and mapping them to text took several times as long, bench/RESULTS.md "Session 18 –
// history" and "Session 21 – history"). The history's pages can also be light rows (domain routePageRow), written
// the same way. A row only JS can write the same way (a date not in toISOString form, a
// number stored as text, an infinite one) comes back NULL; the page is then read row by row and those rows go
// through JS. PostgreSQL reads the rows (its numbers and dates are written by JS) on the read pool, as the cursor
// and the extent on both stores (issue #30: the main thread never waits on PostgreSQL here). The page statements
// are hot and dialect-specific, so they are prepared once per reader; the cursor is a compiled query.
import type { Selectable } from 'kysely';
import type { PositionRow } from '../schema.ts';
import type { SqlDatabase, SqlStatement } from '../sql.ts';
import { preparedQuery, qb, rowAsync } from './query.ts';

const ISO_GLOB =
  "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'";
const NUMBERS = ['latitude', 'longitude', 'altitude', 'speed', 'course', 'accuracy'];
const DATES = ['serverTime', 'deviceTime', 'fixTime'];

/** Stored JSON text of one kind (object / array) as it is, else `fallback` (SQL text of a JSON value). */
const jsonOf = (c: string, type: 'object' | 'array', fallback: string) =>
  `CASE WHEN typeof(${c}) = 'text' AND json_valid(${c}) AND json_type(${c}) = '${type}' THEN ${c} ELSE ${fallback} END`;

/** A stored `toISOString()` date as Jackson writes it ("…+00:00"); the NULL check below vouches for its form. */
const date = (c: string) => `'"' || substr(${c}, 1, 23) || '+00:00"'`;

/**
 * The SQLite expression of a position row's JSON text as positionFromRow gives it (same fields and order; numbers
 * as SQLite's JSON writes them, e.g. 760.0 for 760), NULL where only JS can say. Plain concatenation: json_object
 * over the same values cost about a third more.
 */
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
  const text = [
    `'{"id":' || id`,
    `',"attributes":' || ${jsonOf('attributes', 'object', "'{}'")}`,
    `',"deviceId":' || deviceId`,
    `',"protocol":' || json_quote(protocol)`,
    `',"serverTime":' || ${date('serverTime')}`,
    `',"deviceTime":' || ${date('deviceTime')}`,
    `',"fixTime":' || ${date('fixTime')}`,
    `',"valid":' || CASE WHEN valid <> 0 THEN 'true' ELSE 'false' END`,
    ...['latitude', 'longitude', 'altitude', 'speed', 'course'].map((c) => `',"${c}":' || json_quote(${c})`),
    `',"address":' || json_quote(address)`,
    `',"accuracy":' || json_quote(accuracy)`,
    `',"network":' || CASE WHEN network IS NULL OR network = '' THEN 'null' ELSE ${jsonOf('network', 'object', "'{}'")} END`,
    `',"geofenceIds":' || ${jsonOf('geofenceIds', 'array', "'null'")}`,
    `',"outdated":false}'`,
  ].join(' || ');
  return `CASE WHEN ${jsOnly.map((c) => `(${c})`).join(' OR ')} THEN NULL ELSE ${text} END`;
})();

/**
 * The SQLite expression of a position row's light page row (domain routePageRow: [id, fix time in ms, latitude,
 * longitude, speed, course, altitude, address]) as JSON text, NULL where only JS can say (the same checks as
 * POSITION_JSON_SQL on these columns). The fix time in ms from its checked ISO text: whole seconds by strftime,
 * plus the milliseconds digits.
 */
const ROW_JSON_SQL = (() => {
  const numbers = ['latitude', 'longitude', 'speed', 'course', 'altitude'];
  const jsOnly = [
    "typeof(id) <> 'integer'",
    "typeof(address) NOT IN ('text', 'null')",
    ...numbers.map(
      (c) => `typeof(${c}) NOT IN ('integer', 'real') OR NOT (abs(${c}) <= 1.7976931348623157e308)`,
    ),
    `typeof(fixTime) <> 'text' OR fixTime NOT GLOB ${ISO_GLOB}`,
  ];
  const ms = "(CAST(strftime('%s', fixTime) AS INTEGER) * 1000 + CAST(substr(fixTime, 21, 3) AS INTEGER))";
  const text = [
    `'[' || id`,
    `',' || ${ms}`,
    ...numbers.map((c) => `',' || json_quote(${c})`),
    `',' || json_quote(address) || ']'`,
  ].join(' || ');
  return `CASE WHEN ${jsOnly.map((c) => `(${c})`).join(' OR ')} THEN NULL ELSE ${text} END`;
})();

/** `fixTime > ? OR id > ?` after the cursor's own fix time: index range on (deviceId, fixTime), then the tie. */
const PAGE_WHERE =
  'FROM positions WHERE deviceId = ? AND fixTime >= ? AND fixTime < ? AND (fixTime > ? OR id > ?) ' +
  'ORDER BY fixTime, id LIMIT ?';

/** Where a page starts: after this position (its fix time and id), or at the period's start. */
export interface RouteCursor {
  fixTime: string;
  id: number;
}

/** The arguments of a page: device, lower bound, upper bound, cursor fix time, cursor id, limit. */
type PageArgs = [number, string, string, string, number, number];

export type StoredPosition = Selectable<PositionRow>;

/** A page's JSON texts in one format, written by the query (SQLite). */
export interface PageTexts {
  /** The page's texts joined by commas ('' when empty), or null when a row of it needs JS (always null on PostgreSQL). */
  joined(...args: PageArgs): string | null;
  /** The page's rows: each row's text, or null where it needs JS, with its id (none on PostgreSQL). */
  texts(...args: PageArgs): Array<{ json: string | null; id: number }>;
}

/** The page reads of one store, prepared once. */
export interface RoutePageReads {
  /** the positions as the API's objects */
  positions: PageTexts;
  /** the history's light rows (routePageRow) */
  light: PageTexts;
  /** The page's stored rows, read on the read pool. */
  rows(...args: PageArgs): Promise<StoredPosition[]>;
}

function prepareTexts(db: SqlDatabase, expression: string): PageTexts {
  // the page's rows in order (a co-routine), joined in that order; count(j) < count(*) when one needs JS
  const joined: SqlStatement = db.prepare(
    `SELECT group_concat(j, ',') AS text, count(*) AS n, count(j) AS written ` +
      `FROM (SELECT ${expression} AS j ${PAGE_WHERE})`,
  );
  const texts = db.prepare(`SELECT ${expression} AS json, id ${PAGE_WHERE}`);
  return {
    joined(...args) {
      const r = joined.get(...args) as { text: string | null; n: number; written: number };
      return r.written < r.n ? null : (r.text ?? '');
    },
    texts: (...args) => texts.all(...args) as Array<{ json: string | null; id: number }>,
  };
}

/** A page's stored rows (PAGE_WHERE as a compiled query, both dialects), on the read pool. */
function preparePageRows(db: SqlDatabase): (...args: PageArgs) => Promise<StoredPosition[]> {
  const page = preparedQuery<
    { deviceId: number; from: string; to: string; afterTime: string; afterId: number; limit: number },
    StoredPosition
  >(db, ['deviceId', 'from', 'to', 'afterTime', 'afterId', 'limit'], (p) =>
    qb(db)
      .selectFrom('positions')
      .selectAll()
      .where('deviceId', '=', p.deviceId)
      .where('fixTime', '>=', p.from)
      .where('fixTime', '<', p.to)
      .where((eb) => eb.or([eb('fixTime', '>', p.afterTime), eb('id', '>', p.afterId)]))
      .orderBy('fixTime')
      .orderBy('id')
      .limit(p.limit),
  );
  return (deviceId, from, to, afterTime, afterId, limit) =>
    page.allAsync({ deviceId, from, to, afterTime, afterId, limit });
}

export function prepareRoutePageReads(db: SqlDatabase): RoutePageReads {
  const rows = preparePageRows(db);
  if (db.dialect !== 'sqlite') {
    const none: PageTexts = { joined: () => null, texts: () => [] };
    return { positions: none, light: none, rows };
  }
  return {
    positions: prepareTexts(db, POSITION_JSON_SQL),
    light: prepareTexts(db, ROW_JSON_SQL),
    rows,
  };
}

/** The position `id` of the device as a route cursor, if the device has one of that id (on the read pool). */
export function routeCursor(db: SqlDatabase, deviceId: number, id: number): Promise<RouteCursor | undefined> {
  return rowAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .select(['fixTime', 'id'])
      .where('id', '=', id)
      .where('deviceId', '=', deviceId),
  );
}

/** [west, south, east, north] of a device's positions with lower ≤ fixTime < upper, if it has any (read pool). */
export async function routeExtent(
  db: SqlDatabase,
  deviceId: number,
  lower: string,
  upper: string,
): Promise<[number, number, number, number] | undefined> {
  const r = await rowAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .select((eb) => [
        eb.fn.min('longitude').as('west'),
        eb.fn.min('latitude').as('south'),
        eb.fn.max('longitude').as('east'),
        eb.fn.max('latitude').as('north'),
      ])
      .where('deviceId', '=', deviceId)
      .where('fixTime', '>=', lower)
      .where('fixTime', '<', upper),
  );
  const box = r ? [r.west, r.south, r.east, r.north].map(Number) : [];
  return box.length === 4 && box.every(Number.isFinite) && r?.west !== null
    ? (box as [number, number, number, number])
    : undefined;
}
