// Geometry shared by the server (geofences, distances, reports) and the web (area display, drawing).
// Traccar's conventions: haversine on a sphere of radius 6 378 137 m, WKT-like areas with LATITUDE FIRST.

export const EARTH_RADIUS_M = 6_378_137;
export const DEFAULT_POLYLINE_DISTANCE_M = 25;

export interface LatLon {
  latitude: number;
  longitude: number;
}

export type GeoArea =
  | { type: 'circle'; center: LatLon; radius: number }
  | { type: 'polygon'; points: LatLon[] }
  | { type: 'linestring'; points: LatLon[] };

const toRad = (deg: number): number => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine, R = 6 378 137 m). */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = toRad(lat2 - lat1);
  const dLon = toRad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

export function distanceBetween(a: LatLon, b: LatLon): number {
  return haversine(a.latitude, a.longitude, b.latitude, b.longitude);
}

/** The point reached from `from` after `distance` metres on initial bearing `bearingDeg` (0 = north). */
export function destination(from: LatLon, bearingDeg: number, distance: number): LatLon {
  const d = distance / EARTH_RADIUS_M;
  const b = toRad(bearingDeg);
  const lat1 = toRad(from.latitude);
  const lon1 = toRad(from.longitude);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lon2 =
    lon1 +
    Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { latitude: (lat2 * 180) / Math.PI, longitude: (((lon2 * 180) / Math.PI + 540) % 360) - 180 };
}

/** Initial bearing in degrees [0, 360) from a to b. */
export function bearing(a: LatLon, b: LatLon): number {
  const lat1 = toRad(a.latitude);
  const lat2 = toRad(b.latitude);
  const dLon = toRad(b.longitude - a.longitude);
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

const NUM = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?';
const CIRCLE_RE = new RegExp(`^\\s*CIRCLE\\s*\\(\\s*(${NUM})\\s+(${NUM})\\s*,\\s*(${NUM})\\s*\\)\\s*$`, 'i');
const POLYGON_RE = /^\s*POLYGON\s*\(\s*\((.*)\)\s*\)\s*$/i;
const LINESTRING_RE = /^\s*LINESTRING\s*\((.*)\)\s*$/i;
const PAIR_RE = new RegExp(`^(${NUM})\\s+(${NUM})$`);

function parsePoints(body: string): LatLon[] | null {
  const points: LatLon[] = [];
  for (const raw of body.split(',')) {
    const m = PAIR_RE.exec(raw.trim());
    if (!m) return null;
    const p = { latitude: Number(m[1]), longitude: Number(m[2]) };
    if (!validLatLon(p)) return null;
    points.push(p);
  }
  return points;
}

function validLatLon(p: LatLon): boolean {
  return (
    Number.isFinite(p.latitude) &&
    Number.isFinite(p.longitude) &&
    Math.abs(p.latitude) <= 90 &&
    Math.abs(p.longitude) <= 180
  );
}

/** Parses a Traccar area string; returns null when it is not a valid CIRCLE, POLYGON or LINESTRING. */
export function parseArea(wkt: string): GeoArea | null {
  if (typeof wkt !== 'string') return null;
  const c = CIRCLE_RE.exec(wkt);
  if (c) {
    const center = { latitude: Number(c[1]), longitude: Number(c[2]) };
    const radius = Number(c[3]);
    if (!validLatLon(center) || !Number.isFinite(radius) || radius <= 0) return null;
    return { type: 'circle', center, radius };
  }
  const p = POLYGON_RE.exec(wkt);
  if (p) {
    // Holes (a second ring) are not part of Traccar's geofence model.
    if (p[1].includes('(') || p[1].includes(')')) return null;
    const points = parsePoints(p[1]);
    if (!points) return null;
    const ring = closedRingOpen(points);
    if (ring.length < 3) return null;
    return { type: 'polygon', points: ring };
  }
  const l = LINESTRING_RE.exec(wkt);
  if (l) {
    if (l[1].includes('(') || l[1].includes(')')) return null;
    const points = parsePoints(l[1]);
    if (!points || points.length < 2) return null;
    return { type: 'linestring', points };
  }
  return null;
}

/** Drops the repeated closing point of a ring, if present. */
function closedRingOpen(points: LatLon[]): LatLon[] {
  if (points.length > 1) {
    const a = points[0];
    const b = points[points.length - 1];
    if (a.latitude === b.latitude && a.longitude === b.longitude) return points.slice(0, -1);
  }
  return points;
}

/** Formats an area back to Traccar's string (polygon ring closed, latitude first). */
export function formatArea(area: GeoArea): string {
  const pts = (ps: LatLon[]) => ps.map((p) => `${p.latitude} ${p.longitude}`).join(', ');
  switch (area.type) {
    case 'circle':
      return `CIRCLE (${area.center.latitude} ${area.center.longitude}, ${area.radius})`;
    case 'polygon':
      return `POLYGON ((${pts([...area.points, area.points[0]])}))`;
    case 'linestring':
      return `LINESTRING (${pts(area.points)})`;
  }
}

/** Distance in metres from p to the segment a-b (local equirectangular projection around p). */
export function distanceToSegment(p: LatLon, a: LatLon, b: LatLon): number {
  const k = Math.cos(toRad(p.latitude));
  const ax = toRad(a.longitude - p.longitude) * k * EARTH_RADIUS_M;
  const ay = toRad(a.latitude - p.latitude) * EARTH_RADIUS_M;
  const bx = toRad(b.longitude - p.longitude) * k * EARTH_RADIUS_M;
  const by = toRad(b.latitude - p.latitude) * EARTH_RADIUS_M;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : -(ax * dx + ay * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/** Ray casting in the lat/lon plane, as Traccar's polygon geofence does. */
export function pointInPolygon(p: LatLon, ring: LatLon[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const yi = ring[i].latitude;
    const xi = ring[i].longitude;
    const yj = ring[j].latitude;
    const xj = ring[j].longitude;
    if (yi > p.latitude !== yj > p.latitude) {
      const x = ((xj - xi) * (p.latitude - yi)) / (yj - yi) + xi;
      if (p.longitude < x) inside = !inside;
    }
  }
  return inside;
}

/**
 * Whether a point is inside an area. For a line, "inside" means within `polylineDistance` metres
 * (geofence attribute, default 25 m).
 */
export function isInsideArea(
  area: GeoArea,
  p: LatLon,
  polylineDistance = DEFAULT_POLYLINE_DISTANCE_M,
): boolean {
  switch (area.type) {
    case 'circle':
      return distanceBetween(area.center, p) <= area.radius;
    case 'polygon':
      return pointInPolygon(p, area.points);
    case 'linestring':
      for (let i = 1; i < area.points.length; i++) {
        if (distanceToSegment(p, area.points[i - 1], area.points[i]) <= polylineDistance) return true;
      }
      return false;
  }
}

/** Spherical polygon area in m² (ring of lat/lon, open or closed), R = 6 378 137 m. */
function ringAreaM2(ring: LatLon[]): number {
  const n = ring.length;
  if (n < 3) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const p1 = ring[i];
    const p2 = ring[(i + 1) % n];
    const p3 = ring[(i + 2) % n];
    total += (toRad(p3.longitude) - toRad(p1.longitude)) * Math.sin(toRad(p2.latitude));
  }
  return Math.abs((total * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** Area in km² (circle: π r²; polygon: spherical area; line: 0). */
export function areaKm2(area: GeoArea): number {
  switch (area.type) {
    case 'circle':
      return (Math.PI * area.radius * area.radius) / 1e6;
    case 'polygon':
      return ringAreaM2(area.points) / 1e6;
    case 'linestring':
      return 0;
  }
}

/** Length of a path in metres (sum of haversine legs). */
export function pathLength(points: LatLon[]): number {
  let d = 0;
  for (let i = 1; i < points.length; i++) d += distanceBetween(points[i - 1], points[i]);
  return d;
}
