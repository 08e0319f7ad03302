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
 * The marker icons in one file (web/src/api/mapIconSprite.bin, made by server/src/ext/assets/generate.ts): square
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
  | { kind: 'bounds'; source: 'devices'; bounds: Bounds; center: LatLng; zoom: number };

function validZoom(z: unknown): z is number {
  return typeof z === 'number' && Number.isFinite(z) && z > 0;
}

/** Zoom: the user's, else the server's, else 17. */
export function initialZoom(user?: CoordSource | null, server?: CoordSource | null): number {
  if (validZoom(user?.zoom)) return user.zoom;
  if (validZoom(server?.zoom)) return server.zoom;
  return MAP_DEFAULT_ZOOM;
}

/**
 * SPEC §5 centring: the user's coordinates only if both valid, else the server's, else the bounds of all
 * devices' positions, else 0,0.
 */
export function initialView(
  user: CoordSource | null | undefined,
  server: CoordSource | null | undefined,
  positions: readonly Partial<LatLng>[] = [],
): InitialView {
  const zoom = initialZoom(user, server);
  for (const [source, s] of [
    ['user', user],
    ['server', server],
  ] as const) {
    if (s && isValidLatitude(s.latitude) && isValidLongitude(s.longitude)) {
      return { kind: 'center', source, center: { latitude: s.latitude, longitude: s.longitude }, zoom };
    }
  }
  const bounds = boundsOf(positions);
  if (bounds) {
    return {
      kind: 'bounds',
      source: 'devices',
      bounds,
      center: { latitude: (bounds.south + bounds.north) / 2, longitude: (bounds.west + bounds.east) / 2 },
      zoom,
    };
  }
  return { kind: 'center', source: 'default', center: { latitude: 0, longitude: 0 }, zoom };
}

/** Parameters of the centre-on-device fly animation. */
export function centerOnDevice(p: LatLng): { center: [number, number]; zoom: number; duration: number } {
  return {
    center: [p.longitude, p.latitude],
    zoom: CENTER_ON_DEVICE_ZOOM,
    duration: CENTER_ON_DEVICE_DURATION_MS,
  };
}
