// Geofence `area` strings (CONTRACT §3): WKT-like, LATITUDE FIRST.
//   CIRCLE (lat lon, radiusMeters) · POLYGON ((lat lon, …, lat lon)) · LINESTRING (lat lon, lat lon, …)

type LatLon = [lat: number, lon: number];
type Area =
  | { type: 'circle'; center: LatLon; radius: number }
  | { type: 'polygon'; points: LatLon[] }
  | { type: 'linestring'; points: LatLon[] };

const NUM = '[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?';

function parsePoint(text: string): LatLon | string {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2 || !parts.every((p) => new RegExp(`^${NUM}$`).test(p)))
    return `invalid point "${text.trim()}"`;
  const [lat, lon] = parts.map(Number);
  if (lat < -90 || lat > 90) return `latitude out of range: ${lat}`;
  if (lon < -180 || lon > 180) return `longitude out of range: ${lon}`;
  return [lat, lon];
}

function parsePoints(text: string): LatLon[] | string {
  const out: LatLon[] = [];
  for (const chunk of text.split(',')) {
    const p = parsePoint(chunk);
    if (typeof p === 'string') return p;
    out.push(p);
  }
  return out;
}

/** Parses a geofence area; returns the shape or an error text. */
function parseAreaText(input: string): Area | string {
  const text = String(input ?? '').trim();
  let m = /^CIRCLE\s*\(\s*([^,()]+),\s*([^,()]+)\)$/i.exec(text);
  if (m) {
    const center = parsePoint(m[1]);
    if (typeof center === 'string') return center;
    const radius = Number(m[2].trim());
    if (!new RegExp(`^${NUM}$`).test(m[2].trim()) || !(radius > 0)) return `invalid radius "${m[2].trim()}"`;
    return { type: 'circle', center, radius };
  }
  m = /^POLYGON\s*\(\s*\(([^()]+)\)\s*\)$/i.exec(text);
  if (m) {
    const points = parsePoints(m[1]);
    if (typeof points === 'string') return points;
    if (points.length < 3) return 'a polygon needs at least 3 points';
    return { type: 'polygon', points };
  }
  m = /^LINESTRING\s*\(([^()]+)\)$/i.exec(text);
  if (m) {
    const points = parsePoints(m[1]);
    if (typeof points === 'string') return points;
    if (points.length < 2) return 'a line needs at least 2 points';
    return { type: 'linestring', points };
  }
  return 'area must be CIRCLE (lat lon, radius), POLYGON ((lat lon, ...)) or LINESTRING (lat lon, ...)';
}

/** Null when `area` is a valid geofence area string, else an error text (for forms and the server). */
export function validateArea(area: string): string | null {
  const r = parseAreaText(area);
  return typeof r === 'string' ? r : null;
}
