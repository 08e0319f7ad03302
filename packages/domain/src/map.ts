// SPEC §3/§5/§9 map rules: initial centre and zoom, fly/marker timings, icon types, status colours, mapPref.
import type { DeviceStatus } from './types.ts';

export const MAP_DEFAULT_ZOOM = 17;
export const CENTER_ON_DEVICE_ZOOM = 18;
export const CENTER_ON_DEVICE_DURATION_MS = 1_500;
export const MARKER_MOVE_MS = 500;

export const MAP_ICON_TYPES = [
  'default',
  'arrow',
  'person',
  'animal',
  'bicycle',
  'motorcycle',
  'scooter',
  'car',
  'pickup',
  'van',
  'truck',
  'truck1',
  'truck2',
  'tractor',
  'boat',
  'ship',
  'bus',
  'train',
  'trolleybus',
  'tram',
  'crane',
  'plane',
  'helicopter',
  'offroad',
] as const;
export type MapIconType = (typeof MAP_ICON_TYPES)[number];

/**
 * The marker icons in one file (web/src/api/mapIconSprite.bin, made by server/scripts/assets/generate.ts): square
 * cells of `size` px, `columns` to a row, in MAP_ICON_TYPES order. One request instead of 24 on the way to the
 * first map (issue #13).
 */
export const MAP_ICON_SPRITE = { size: 64, columns: 6 } as const;

/** Top-left pixel of an icon's cell in the sprite. */
export function spriteCell(type: MapIconType): { x: number; y: number } {
  const i = MAP_ICON_TYPES.indexOf(type);
  return {
    x: (i % MAP_ICON_SPRITE.columns) * MAP_ICON_SPRITE.size,
    y: Math.floor(i / MAP_ICON_SPRITE.columns) * MAP_ICON_SPRITE.size,
  };
}

/** The sprite's width and height in px. */
export function spriteSize(): { width: number; height: number } {
  const { size, columns } = MAP_ICON_SPRITE;
  return { width: size * columns, height: size * Math.ceil(MAP_ICON_TYPES.length / columns) };
}

export function isMapIconType(v: unknown): v is MapIconType {
  return typeof v === 'string' && (MAP_ICON_TYPES as readonly string[]).includes(v);
}

/** Unknown or missing icon names fall back to 'default'. */
export function resolveMapIcon(v: unknown): MapIconType {
  return isMapIconType(v) ? v : 'default';
}

/** Marker / badge colour per device status (moving devices use the 'moving' colour). */
export const STATUS_COLORS = {
  online: '#2e7d32',
  offline: '#c62828',
  unknown: '#757575',
  moving: '#1565c0',
} as const;

export function statusColor(status: DeviceStatus, moving = false): string {
  if (status === 'online' && moving) return STATUS_COLORS.moving;
  return STATUS_COLORS[status] ?? STATUS_COLORS.unknown;
}

export interface MapPref {
  clustered: boolean;
  name: boolean;
  plate: boolean;
  status: boolean;
  precision: boolean;
  showGeofences: boolean;
  geofenceNames: boolean;
}

/** SPEC §9: clustered on, geofences shown; name labels on; the rest off. */
export const DEFAULT_MAP_PREF: MapPref = Object.freeze({
  clustered: true,
  name: true,
  plate: false,
  status: false,
  precision: false,
  showGeofences: true,
  geofenceNames: true,
}) as MapPref;

/** Reads a stored mapPref (JSON string or object), keeping only boolean fields, defaults for the rest. */
export function parseMapPref(stored: unknown): MapPref {
  let obj: unknown = stored;
  if (typeof stored === 'string') {
    try {
      obj = JSON.parse(stored);
    } catch {
      obj = null;
    }
  }
  const out: MapPref = { ...DEFAULT_MAP_PREF };
  if (obj && typeof obj === 'object') {
    for (const k of Object.keys(out) as (keyof MapPref)[]) {
      const v = (obj as Record<string, unknown>)[k];
      if (typeof v === 'boolean') out[k] = v;
    }
  }
  return out;
}

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Valid user/server coordinate: finite, not 0, latitude −90..90, longitude −180..180. */
export function isValidLatitude(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v !== 0 && v >= -90 && v <= 90;
}
export function isValidLongitude(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v !== 0 && v >= -180 && v <= 180;
}

export interface CoordSource {
  latitude?: number | null;
  longitude?: number | null;
  zoom?: number | null;
}

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** Bounds of the given points (invalid points ignored); null when none. */
export function boundsOf(points: readonly Partial<LatLng>[]): Bounds | null {
  let b: Bounds | null = null;
  for (const p of points) {
    const { latitude: lat, longitude: lon } = p;
    if (typeof lat !== 'number' || typeof lon !== 'number') continue;
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180)
      continue;
    if (!b) b = { south: lat, north: lat, west: lon, east: lon };
    else {
      b.south = Math.min(b.south, lat);
      b.north = Math.max(b.north, lat);
      b.west = Math.min(b.west, lon);
      b.east = Math.max(b.east, lon);
    }
  }
  return b;
}

export type InitialView =
  | { kind: 'center'; source: 'user' | 'server' | 'default'; center: LatLng; zoom: number }
  | { kind: 'fit'; source: 'devices'; bounds: Bounds; center: LatLng; zoom: number };

function validZoom(z: unknown): z is number {
  return typeof z === 'number' && Number.isFinite(z) && z > 0;
}

/** Zoom: the user's, else the server's, else 17. */
export function initialZoom(user?: CoordSource | null, server?: CoordSource | null): number {
  if (validZoom(user?.zoom)) return user.zoom;
  if (validZoom(server?.zoom)) return server.zoom;
  return MAP_DEFAULT_ZOOM;
}

/** The first map's fit never zooms in closer than this (one vehicle, or several parked together). */
export const FIT_MAX_ZOOM = 16;
/** MapLibre's tile size: the world is 512 × 2^zoom px wide. */
const WORLD_TILE = 512;
/** Web Mercator's latitude limit. */
const MAX_MERCATOR_LAT = 85.051129;

export interface Padding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/**
 * Room kept around the fitted markers (px) on top of any panel: the icon above and its label below (name, plate,
 * status: up to three 12 px lines under the icon), a label's half width at the sides, and the map's own
 * controls (zoom, style, preferences) down the right edge.
 */
export const FIT_MARKER_MARGIN: Readonly<Padding> = Object.freeze({
  top: 30,
  right: 70,
  bottom: 70,
  left: 70,
});

/** The map's drawing area in px, and what covers its edges (panels, sheets). */
export interface MapViewport {
  width: number;
  height: number;
  padding?: Partial<Padding>;
}

const mercX = (lon: number) => (lon + 180) / 360;
const mercY = (lat: number) => {
  const phi = (Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat)) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2;
};
const lonOf = (x: number) => x * 360 - 180;
const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/**
 * Centre and zoom showing all of `bounds` inside the viewport's padded area (Web Mercator, as MapLibre draws),
 * the zoom capped at `maxZoom` (a single point, or points at one place, sit in the middle of the padded area at
 * that zoom). Padding that leaves no room on an axis is dropped on that axis. The antimeridian is not handled:
 * bounds span west → east.
 */
export function fitView(
  bounds: Bounds,
  viewport: MapViewport,
  maxZoom: number = FIT_MAX_ZOOM,
): { center: LatLng; zoom: number } {
  let { top = 0, right = 0, bottom = 0, left = 0 } = viewport.padding ?? {};
  const width = Math.max(1, viewport.width);
  const height = Math.max(1, viewport.height);
  if (width - left - right < 1) left = right = 0;
  if (height - top - bottom < 1) top = bottom = 0;
  const x0 = mercX(bounds.west);
  const x1 = mercX(bounds.east);
  const y0 = mercY(bounds.north);
  const y1 = mercY(bounds.south);
  const fit = (room: number, span: number) => (span > 0 ? Math.log2(room / (span * WORLD_TILE)) : Infinity);
  const zoom = Math.max(
    0,
    Math.min(maxZoom, fit(width - left - right, x1 - x0), fit(height - top - bottom, y1 - y0)),
  );
  const world = WORLD_TILE * 2 ** zoom;
  // the bounds' middle goes to the padded area's middle, which is (left − right) / 2, (top − bottom) / 2 px off
  // the map's centre
  const cx = ((x0 + x1) / 2) * world - (left - right) / 2;
  const cy = ((y0 + y1) / 2) * world - (top - bottom) / 2;
  return { center: { latitude: latOf(cy / world), longitude: lonOf(cx / world) }, zoom };
}

/**
 * The first map (issue #28): fitted to every position the user can see (`positions`), kept clear of the panels
 * (`viewport.padding`) with FIT_MARKER_MARGIN around the markers, at most FIT_MAX_ZOOM. Without any position:
 * SPEC §5's centre (the user's coordinates only if both valid, else the server's, else 0,0), zoom user → server →
 * 17.
 */
export function initialView(
  user: CoordSource | null | undefined,
  server: CoordSource | null | undefined,
  positions: readonly Partial<LatLng>[],
  viewport: MapViewport,
): InitialView {
  const bounds = boundsOf(positions);
  if (bounds) {
    const pad = viewport.padding ?? {};
    const m = FIT_MARKER_MARGIN;
    const padding: Padding = {
      top: (pad.top ?? 0) + m.top,
      right: (pad.right ?? 0) + m.right,
      bottom: (pad.bottom ?? 0) + m.bottom,
      left: (pad.left ?? 0) + m.left,
    };
    return { kind: 'fit', source: 'devices', bounds, ...fitView(bounds, { ...viewport, padding }) };
  }
  const zoom = initialZoom(user, server);
  for (const [source, s] of [
    ['user', user],
    ['server', server],
  ] as const) {
    if (s && isValidLatitude(s.latitude) && isValidLongitude(s.longitude)) {
      return { kind: 'center', source, center: { latitude: s.latitude, longitude: s.longitude }, zoom };
    }
  }
  return { kind: 'center', source: 'default', center: { latitude: 0, longitude: 0 }, zoom };
}

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Padding that keeps a view clear of a panel laid over the map: a panel along the left (or right) edge over the
 * full height pads that side, a sheet along the bottom (or top) over the full width pads that side. A panel
 * covering the whole map, or none, pads nothing.
 */
export function overlayPadding(map: Rect, panel: Rect | null | undefined): Padding {
  const none: Padding = { top: 0, right: 0, bottom: 0, left: 0 };
  if (!panel) return none;
  const l = Math.max(map.left, panel.left);
  const r = Math.min(map.right, panel.right);
  const t = Math.max(map.top, panel.top);
  const b = Math.min(map.bottom, panel.bottom);
  if (r <= l || b <= t) return none;
  const fullHeight = t <= map.top + 1 && b >= map.bottom - 1;
  const fullWidth = l <= map.left + 1 && r >= map.right - 1;
  if (fullHeight && fullWidth) return none;
  if (fullHeight && l <= map.left + 1) return { ...none, left: r - map.left };
  if (fullHeight && r >= map.right - 1) return { ...none, right: map.right - l };
  if (fullWidth && b >= map.bottom - 1) return { ...none, bottom: map.bottom - t };
  if (fullWidth && t <= map.top + 1) return { ...none, top: b - map.top };
  return none;
}

/** Parameters of the centre-on-device fly animation. */
export function centerOnDevice(p: LatLng): { center: [number, number]; zoom: number; duration: number } {
  return {
    center: [p.longitude, p.latitude],
    zoom: CENTER_ON_DEVICE_ZOOM,
    duration: CENTER_ON_DEVICE_DURATION_MS,
  };
}
