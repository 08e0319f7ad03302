// History route (SPEC §3 "Route", §5 route load, §8 errors): parsing a route answer into compact points, speed
// colouring, the playback clock with time interpolation, and the GPX / KML / CSV text of an exported route.
// Pure: no DOM, no map. The web draws and plays what these functions compute.
import type { MessageKey } from './messages.ts';
import { convertSpeed, knotsToMps, speedToKnots, UNIT_LABELS, type SpeedUnit } from './units.ts';
import { routeResponseProblem } from './validation.ts';

/** One point of a route: the ordered latitude, longitude, position id and course of SPEC §3, plus what playback shows. */
export interface RoutePoint {
  id: number;
  deviceId: number;
  latitude: number;
  longitude: number;
  course: number;
  /** knots */
  speed: number;
  /** metres */
  altitude: number;
  /** fix time, ms since epoch */
  time: number;
  address: string | null;
  attributes: Record<string, unknown>;
}

const isFinite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optionalNumber = (v: unknown): v is number | null | undefined =>
  v === undefined || v === null || isFinite(v);

/**
 * One element of a route answer as a point, or null when it is not a position with numeric coordinates and a fix
 * time: an integer id, optional integer deviceId, latitude −90…90, longitude −180…180, finite (or absent) course,
 * speed and altitude, a parseable fixTime, a string (or absent) address, an object (or absent) attributes. Plain
 * checks rather than a schema per point: a route of 100,000 points is read in pages as it arrives (issue #31).
 */
function routePoint(raw: unknown): RoutePoint | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const p = raw as Record<string, unknown>;
  const { id, deviceId, latitude, longitude, course, speed, altitude, fixTime, address, attributes } = p;
  if (!isFinite(id) || !Number.isInteger(id)) return null;
  if (deviceId !== undefined && (!isFinite(deviceId) || !Number.isInteger(deviceId))) return null;
  if (!isFinite(latitude) || latitude < -90 || latitude > 90) return null;
  if (!isFinite(longitude) || longitude < -180 || longitude > 180) return null;
  if (!optionalNumber(course) || !optionalNumber(speed) || !optionalNumber(altitude)) return null;
  if (typeof fixTime !== 'string') return null;
  const time = Date.parse(fixTime);
  if (!Number.isFinite(time)) return null;
  if (address !== undefined && address !== null && typeof address !== 'string') return null;
  if (
    attributes !== undefined &&
    attributes !== null &&
    (typeof attributes !== 'object' || Array.isArray(attributes))
  )
    return null;
  return {
    id,
    deviceId: deviceId ?? 0,
    latitude,
    longitude,
    course: course ?? 0,
    speed: speed ?? 0,
    altitude: altitude ?? 0,
    time,
    address: address ?? null,
    attributes: (attributes as Record<string, unknown> | null | undefined) ?? {},
  };
}

export type RouteParse = { ok: true; points: RoutePoint[] } | { ok: false; error: MessageKey };

/**
 * SPEC §5: the response must exist and be an array; each element must be a position with numeric coordinates
 * and a fix time ('route.invalidData' otherwise). An empty array is the empty period ('route.noData').
 * Points come back sorted by fix time (stable for equal times).
 */
export function parseRoute(response: unknown): RouteParse {
  const problem = routeResponseProblem(response);
  if (problem) return { ok: false, error: problem };
  const list = response as unknown[];
  if (list.length === 0) return { ok: false, error: 'route.noData' };
  const points: RoutePoint[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const p = routePoint(list[i]);
    if (!p) return { ok: false, error: 'route.invalidData' };
    points[i] = p;
  }
  return { ok: true, points: sortedByTime(points) };
}

function sortedByTime(points: RoutePoint[]): RoutePoint[] {
  for (let i = 1; i < points.length; i++)
    if (points[i].time < points[i - 1].time) return points.sort((a, b) => a.time - b.time);
  return points;
}

/**
 * A route read in pages (issue #31): the points so far followed by the next page's, in fix-time order (stable);
 * a page point already there (same id at the seam, a page asked twice) is dropped. Returns a new array.
 */
export function appendRoutePage(points: readonly RoutePoint[], page: readonly RoutePoint[]): RoutePoint[] {
  if (!page.length) return points.slice();
  const first = page[0].time;
  const seam = new Set<number>();
  for (let i = points.length - 1; i >= 0 && points[i].time >= first; i--) seam.add(points[i].id);
  const out = points.slice();
  for (const p of page) if (!seam.has(p.id)) out.push(p);
  return sortedByTime(out);
}

// ---------------------------------------------------------------------------------------------------------------
// Speed colouring

/** Colours from slow (green) to fast (red); a route is split into runs of one colour. */
export const SPEED_COLORS = [
  '#1a9850',
  '#66bd63',
  '#a6d96a',
  '#d9ef8b',
  '#fee08b',
  '#fdae61',
  '#f46d43',
  '#d73027',
] as const;

/** Bucket (0 … SPEED_COLORS.length − 1) of a speed in a route whose top speed is `maxSpeed` (same unit). */
export function speedBucket(speed: number, maxSpeed: number): number {
  const n = SPEED_COLORS.length;
  if (!(maxSpeed > 0) || !(speed > 0)) return 0;
  const b = Math.floor((Math.min(speed, maxSpeed) / maxSpeed) * n);
  return Math.min(n - 1, b);
}

export function speedColor(speed: number, maxSpeed: number): string {
  return SPEED_COLORS[speedBucket(speed, maxSpeed)];
}

export interface ColourRun {
  color: string;
  /** [lon, lat] pairs; consecutive runs share their joining point so the line has no gaps. */
  coordinates: Array<[number, number]>;
}

/**
 * The route as runs of one colour: the segment from point i to i+1 takes the colour of the mean of their speeds.
 * Consecutive segments of one colour form one run, so 100,000 points give a few thousand features at most.
 */
export function colourRuns(points: readonly RoutePoint[], maxSpeed = routeMaxSpeed(points)): ColourRun[] {
  const runs: ColourRun[] = [];
  let current: ColourRun | null = null;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i];
    const b = points[i + 1];
    const color = speedColor((a.speed + b.speed) / 2, maxSpeed);
    if (!current || current.color !== color) {
      current = { color, coordinates: [[a.longitude, a.latitude]] };
      runs.push(current);
    }
    current.coordinates.push([b.longitude, b.latitude]);
  }
  return runs;
}

/**
 * The header of the first page of GET /{ns}/route giving the extent of the whole period's route,
 * "west,south,east,north" (degrees), so the history fits its view once before the rest arrives.
 */
export const ROUTE_EXTENT_HEADER = 'x-rastro-route-extent';

/** [west, south, east, north] from ROUTE_EXTENT_HEADER's text; null when missing or not four coordinates. */
export function parseRouteExtent(text: string | null | undefined): [number, number, number, number] | null {
  const parts = (text ?? '').split(',').map((v) => (v.trim() === '' ? NaN : Number(v)));
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return null;
  const [w, s, e, n] = parts;
  return w <= e && s <= n && s >= -90 && n <= 90 && w >= -180 && e <= 180 ? [w, s, e, n] : null;
}

/** Top of the speed colour scale in the person's speed unit when the device has no speed limit. */
const ROUTE_SCALE_TOP: Record<SpeedUnit, number> = { kmh: 120, mph: 75, kn: 65 };

/**
 * Top of a route's speed colour scale, in knots, known before the route arrives: the device's speed limit (its
 * `speedLimit` attribute, knots) when it has one, so red is at or over the limit, else a round speed in the
 * person's unit (120 km/h, 75 mph, 65 kn). A page of a long route is coloured once, on this scale, whatever the
 * pages after it hold.
 */
export function routeSpeedScale(unit: SpeedUnit, speedLimit?: unknown): number {
  const limit = Number(speedLimit);
  return Number.isFinite(limit) && limit > 0 ? limit : speedToKnots(ROUTE_SCALE_TOP[unit], unit);
}

export function routeMaxSpeed(points: readonly RoutePoint[]): number {
  let max = 0;
  for (const p of points) if (p.speed > max) max = p.speed;
  return max;
}

// ---------------------------------------------------------------------------------------------------------------
// Playback

/** Speed multipliers offered by the player. */
export const PLAYBACK_SPEEDS = [1, 2, 4, 8, 16, 32, 64] as const;
/** At 1× one wall second plays this many route seconds (a drive of an hour takes a minute). */
export const PLAYBACK_BASE_RATE = 60;
/** Gaps between fixes longer than this (parked, no signal) are shortened to it on the playback timeline. */
export const PLAYBACK_MAX_GAP_MS = 60_000;

/**
 * The playback timeline: timeline[i] is point i's position in playback ms. Real gaps up to PLAYBACK_MAX_GAP_MS are
 * kept, longer ones shortened to it, so a night parked does not play for minutes.
 */
export function playbackTimeline(times: ArrayLike<number>, maxGap = PLAYBACK_MAX_GAP_MS): Float64Array {
  const out = new Float64Array(times.length);
  for (let i = 1; i < times.length; i++) {
    const gap = Math.max(0, times[i] - times[i - 1]);
    out[i] = out[i - 1] + Math.min(gap, maxGap);
  }
  return out;
}

/** Index i with timeline[i] <= t < timeline[i+1] (clamped to 0 … n−1), by binary search. */
export function indexAt(timeline: ArrayLike<number>, t: number): number {
  const n = timeline.length;
  if (n === 0) return -1;
  if (t <= timeline[0]) return 0;
  if (t >= timeline[n - 1]) return n - 1;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (timeline[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

export interface PlaybackFrame {
  /** index of the point at or before the frame */
  index: number;
  /** 0 … 1 between point index and index+1 */
  fraction: number;
  latitude: number;
  longitude: number;
  /** degrees, interpolated the short way round */
  course: number;
  /** knots, interpolated */
  speed: number;
  /** real time of the frame (ms since epoch) */
  time: number;
}

/** Shortest-way interpolation of two bearings in degrees, result in [0, 360). */
export function lerpCourse(a: number, b: number, f: number): number {
  const d = ((((b - a) % 360) + 540) % 360) - 180;
  return (((a + d * f) % 360) + 360) % 360;
}

/** The vehicle at playback time t: linear between the two fixes around t (position, course, speed, real time). */
export function frameAt(
  points: readonly RoutePoint[],
  timeline: ArrayLike<number>,
  t: number,
): PlaybackFrame {
  const i = indexAt(timeline, t);
  const a = points[i];
  const b = points[i + 1];
  const span = b ? timeline[i + 1] - timeline[i] : 0;
  const f = b && span > 0 ? Math.min(1, Math.max(0, (t - timeline[i]) / span)) : 0;
  if (!b || f === 0) {
    return {
      index: i,
      fraction: 0,
      latitude: a.latitude,
      longitude: a.longitude,
      course: a.course,
      speed: a.speed,
      time: a.time,
    };
  }
  return {
    index: i,
    fraction: f,
    latitude: a.latitude + (b.latitude - a.latitude) * f,
    longitude: a.longitude + (b.longitude - a.longitude) * f,
    course: lerpCourse(a.course, b.course, f),
    speed: a.speed + (b.speed - a.speed) * f,
    time: a.time + (b.time - a.time) * f,
  };
}

/**
 * The playback clock, driven by the wall-clock timestamps of animation frames (so it is tested without timers):
 * t advances by wallDelta × speed × PLAYBACK_BASE_RATE, stops at the end and pauses there.
 */
export class PlaybackClock {
  t = 0;
  playing = false;
  speed = 1;
  private lastWall: number | null = null;

  constructor(
    /** length of the timeline in playback ms */
    public duration: number,
    private readonly baseRate = PLAYBACK_BASE_RATE,
  ) {}

  play(wallNow: number): void {
    if (this.t >= this.duration) this.t = 0;
    this.playing = true;
    this.lastWall = wallNow;
  }

  pause(): void {
    this.playing = false;
    this.lastWall = null;
  }

  setSpeed(speed: number, wallNow?: number): void {
    if (!(speed > 0)) return;
    // time played so far keeps its old speed
    if (this.playing && wallNow !== undefined) this.tick(wallNow);
    this.speed = speed;
  }

  seek(t: number): void {
    this.t = Math.min(this.duration, Math.max(0, t));
  }

  /** Advances to wallNow; returns the playback time. */
  tick(wallNow: number): number {
    if (!this.playing || this.lastWall === null) return this.t;
    const delta = Math.max(0, wallNow - this.lastWall);
    this.lastWall = wallNow;
    this.t = Math.min(this.duration, this.t + delta * this.speed * this.baseRate);
    if (this.t >= this.duration) this.pause();
    return this.t;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Export text (GPX 1.1, KML 2.2, CSV)

export function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === "'" ? '&apos;' : '&quot;',
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

export function routeToGpx(name: string, points: readonly RoutePoint[]): string {
  const pts = points
    .map(
      (p) =>
        `<trkpt lat="${p.latitude}" lon="${p.longitude}"><ele>${p.altitude}</ele><time>${iso(p.time)}</time><course>${p.course}</course><speed>${knotsToMps(p.speed)}</speed></trkpt>`,
    )
    .join('\n');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<gpx version="1.1" creator="Rastro" xmlns="http://www.topografix.com/GPX/1/1">\n` +
    `<trk><name>${escapeXml(name)}</name><trkseg>\n${pts}\n</trkseg></trk>\n</gpx>\n`
  );
}

export function routeToKml(name: string, points: readonly RoutePoint[]): string {
  const coords = points.map((p) => `${p.longitude},${p.latitude},${p.altitude}`).join(' ');
  const when = points.map((p) => `<when>${iso(p.time)}</when>`).join('');
  const first = points[0];
  const last = points[points.length - 1];
  const mark = (label: string, p: RoutePoint) =>
    `<Placemark><name>${escapeXml(label)}</name><TimeStamp><when>${iso(p.time)}</when></TimeStamp><Point><coordinates>${p.longitude},${p.latitude},${p.altitude}</coordinates></Point></Placemark>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>` +
    `<name>${escapeXml(name)}</name>` +
    `<Placemark><name>${escapeXml(name)}</name><LineString><tessellate>1</tessellate><coordinates>${coords}</coordinates></LineString></Placemark>` +
    (first ? mark('start', first) + mark('end', last) : '') +
    `<Folder><name>track</name><Placemark><gx:Track>${when}` +
    points.map((p) => `<gx:coord>${p.longitude} ${p.latitude} ${p.altitude}</gx:coord>`).join('') +
    `</gx:Track></Placemark></Folder>` +
    `</Document></kml>\n`
  );
}

export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Column headers and row values of an exported route (shared by CSV and the xlsx sheet). */
export interface RouteTableHeaders {
  time: string;
  latitude: string;
  longitude: string;
  speed: string;
  course: string;
  altitude: string;
  address: string;
}

export const ROUTE_HEADERS_EN: RouteTableHeaders = {
  time: 'Time',
  latitude: 'Latitude',
  longitude: 'Longitude',
  speed: 'Speed',
  course: 'Course',
  altitude: 'Altitude',
  address: 'Address',
};

/** Rows of the route table: ISO time, lat, lon, speed in `unit` (2 decimals), course, altitude, address. */
export function routeRows(points: readonly RoutePoint[], unit: SpeedUnit): Array<Array<string | number>> {
  return points.map((p) => [
    iso(p.time),
    p.latitude,
    p.longitude,
    Math.round(convertSpeed(p.speed, unit) * 100) / 100,
    p.course,
    p.altitude,
    p.address ?? '',
  ]);
}

export function routeHeaderRow(h: RouteTableHeaders, unit: SpeedUnit): string[] {
  return [
    h.time,
    h.latitude,
    h.longitude,
    `${h.speed} (${UNIT_LABELS[unit]})`,
    h.course,
    h.altitude,
    h.address,
  ];
}

export function routeToCsv(
  points: readonly RoutePoint[],
  unit: SpeedUnit,
  headers: RouteTableHeaders = ROUTE_HEADERS_EN,
): string {
  const lines = [routeHeaderRow(headers, unit), ...routeRows(points, unit)].map((r) =>
    r.map(csvCell).join(','),
  );
  return lines.join('\r\n') + '\r\n';
}

// ---------------------------------------------------------------------------------------------------------------
// Summary

export interface RouteSummary {
  count: number;
  from: number;
  to: number;
  /** metres, along the points (haversine) */
  distance: number;
  /** knots */
  maxSpeed: number;
}

export function summariseRoute(points: readonly RoutePoint[]): RouteSummary {
  let distance = 0;
  const R = 6378137;
  const rad = Math.PI / 180;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const dLat = (b.latitude - a.latitude) * rad;
    const dLon = (b.longitude - a.longitude) * rad;
    const h =
      Math.sin(dLat / 2) ** 2 +
      Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
    distance += 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
  }
  return {
    count: points.length,
    from: points[0]?.time ?? 0,
    to: points[points.length - 1]?.time ?? 0,
    distance,
    maxSpeed: routeMaxSpeed(points),
  };
}

/**
 * Which marks history draws besides start and end (server settings "show stops" / "show events",
 * `{ns}.showStops`, `{ns}.showEvents`; SPEC §3 server settings). Off unless the administrator turns them on.
 */
export function historyMarkOptions(
  serverAttributes: Readonly<Record<string, unknown>> | null | undefined,
  ns: string,
): { stops: boolean; events: boolean } {
  const on = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';
  return {
    stops: on(serverAttributes?.[`${ns}.showStops`]),
    events: on(serverAttributes?.[`${ns}.showEvents`]),
  };
}
