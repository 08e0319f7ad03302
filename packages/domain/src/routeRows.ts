// The history's light route page (issue #31): GET /{ns}/route?…&format=rows answers each position as an array of
// only what the history draws, plays, lists and exports, instead of the whole position object (about 60 bytes a
// position against about 410: less for the server to write, the network to carry and the browser to parse).
// `routePageRow` is the format, for the server (which writes it, on SQLite by the page's query) and the web (which
// reads it). The web reads a page with `routePointsFromRows`: plain checks that accept exactly what the schema
// accepts (a test holds them to it), because a zod parse per row cost about twice the page's JSON.parse.
import { z } from 'zod';
import type { RouteParse, RoutePoint } from './route.ts';
import { routeResponseProblem } from './validation.ts';

/** The `format` of GET /{ns}/route that answers rows (the default answers the positions as GET /api/reports/route). */
export const ROUTE_ROWS_FORMAT = 'rows';

/** One position of a light route page: [id, fix time (ms since epoch), latitude, longitude, speed (knots), course, altitude (m), address]. */
export const routePageRow = z.tuple([
  z.number().int(),
  z.number().int(),
  z.number().min(-90).max(90),
  z.number().min(-180).max(180),
  z.number(),
  z.number(),
  z.number(),
  z.string().nullable(),
]);

export type RoutePageRow = z.infer<typeof routePageRow>;

/** A position (as the API gives it) as a light page row. */
export function routePageRowOf(p: {
  id: number;
  fixTime: string;
  latitude: number;
  longitude: number;
  speed: number;
  course: number;
  altitude: number;
  address?: string | null;
}): RoutePageRow {
  return [
    p.id,
    Date.parse(p.fixTime),
    p.latitude,
    p.longitude,
    p.speed,
    p.course,
    p.altitude,
    p.address ?? null,
  ];
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const integer = (v: unknown): v is number => finite(v) && Number.isInteger(v);

/** The row as a point of device `deviceId`, or null when routePageRow would not accept it. */
export function routePointOfRow(raw: unknown, deviceId: number): RoutePoint | null {
  if (!Array.isArray(raw) || raw.length !== 8) return null;
  const [id, time, latitude, longitude, speed, course, altitude, address] = raw as unknown[];
  if (!integer(id) || !integer(time)) return null;
  if (!finite(latitude) || latitude < -90 || latitude > 90) return null;
  if (!finite(longitude) || longitude < -180 || longitude > 180) return null;
  if (!finite(speed) || !finite(course) || !finite(altitude)) return null;
  if (address !== null && typeof address !== 'string') return null;
  return { id, deviceId, latitude, longitude, course, speed, altitude, time, address, attributes: {} };
}

/**
 * A light page (parsed JSON) as the points of device `deviceId`, with parseRoute's answers: not an array ⇒
 * 'route.invalidData', a row routePageRow refuses ⇒ 'route.invalidData', empty ⇒ 'route.noData'. The server
 * sends the rows in fix-time order; they are kept sorted by time (stable) all the same.
 */
export function routePointsFromRows(response: unknown, deviceId: number): RouteParse {
  const problem = routeResponseProblem(response);
  if (problem) return { ok: false, error: problem };
  const list = response as unknown[];
  if (list.length === 0) return { ok: false, error: 'route.noData' };
  const points: RoutePoint[] = new Array(list.length);
  let sorted = true;
  for (let i = 0; i < list.length; i++) {
    const p = routePointOfRow(list[i], deviceId);
    if (!p) return { ok: false, error: 'route.invalidData' };
    points[i] = p;
    if (i > 0 && p.time < points[i - 1].time) sorted = false;
  }
  return { ok: true, points: sorted ? points : points.sort((a, b) => a.time - b.time) };
}
