// The geofence form (SPEC §3 Geofence, §5 "name required") and the geofence list (§2 /geofence): form values ⇄
// Traccar Geofence, the measure shown per fence (km² for circles and polygons, length for lines) and the list
// filter (anchors kept apart). Error messages are i18n keys of messages.ts.
import { DEFAULT_NS, attrBool, attrNumber, nsKey } from './attributes.ts';
import { splitGeofences } from './anchor.ts';
import { areaKm2, destination, parseArea, pathLength, type GeoArea } from './geo.ts';
import { allows } from './access.ts';
import type { PermissionContext } from './permissions.ts';
import type { GeofenceShape } from './geofenceEdit.ts';
import type { MessageKey } from './messages.ts';
import { convertSpeed, speedToKnots, type SpeedUnit } from './units.ts';
import { geofenceFormSchema } from './validation.ts';
import type { Attributes, Geofence } from './types.ts';

/** Colour of a fence without one (the map's default fence colour). */
export const GEOFENCE_DEFAULT_COLOR = '#1976d2';
/** Colour swatches offered by the form. */
export const GEOFENCE_COLORS = [
  '#1976d2',
  '#43a047',
  '#e53935',
  '#fb8c00',
  '#8e24aa',
  '#00897b',
  '#6d4c41',
  '#546e7a',
] as const;

export interface GeofenceFormValues {
  id: number;
  name: string;
  description: string;
  /** #rrggbb (Traccar attribute `color`). */
  color: string;
  /** 0 = no calendar. */
  calendarId: number;
  lockOnEnter: boolean;
  lockOnExit: boolean;
  /** As typed, in the user's speed unit; empty = no limit. Stored as attribute `speedLimit` in knots. */
  speedLimit: string;
  /** CIRCLE / POLYGON / LINESTRING string, latitude first. */
  area: string;
  /** Every other attribute of the fence, kept as is. */
  attributes: Attributes;
}

/** Attribute keys of the lock flags (product attributes, namespaced). */
export const geofenceLockKeys = (ns: string = DEFAULT_NS) => ({
  enter: nsKey(ns, 'lockOnEnter'),
  exit: nsKey(ns, 'lockOnExit'),
});

export function emptyGeofenceForm(area = ''): GeofenceFormValues {
  return {
    id: 0,
    name: '',
    description: '',
    color: GEOFENCE_DEFAULT_COLOR,
    calendarId: 0,
    lockOnEnter: false,
    lockOnExit: false,
    speedLimit: '',
    area,
    attributes: {},
  };
}

const trimNumber = (v: number) => String(Number(v.toFixed(2)));

export function geofenceToForm(
  g: Geofence,
  speedUnit: SpeedUnit,
  ns: string = DEFAULT_NS,
): GeofenceFormValues {
  const keys = geofenceLockKeys(ns);
  const attrs = { ...(g.attributes ?? {}) };
  const color = typeof attrs.color === 'string' && COLOR_RE.test(attrs.color) ? attrs.color : '';
  const limit = attrNumber(attrs.speedLimit);
  const out: GeofenceFormValues = {
    id: g.id,
    name: g.name ?? '',
    description: g.description ?? '',
    color: color || GEOFENCE_DEFAULT_COLOR,
    calendarId: g.calendarId > 0 ? g.calendarId : 0,
    lockOnEnter: attrBool(attrs[keys.enter]),
    lockOnExit: attrBool(attrs[keys.exit]),
    speedLimit: limit !== undefined && limit > 0 ? trimNumber(convertSpeed(limit, speedUnit)) : '',
    area: g.area ?? '',
    attributes: attrs,
  };
  for (const k of ['color', 'speedLimit', keys.enter, keys.exit]) delete out.attributes[k];
  return out;
}

const COLOR_RE = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const K = <T extends MessageKey>(k: T): T => k;

export type GeofenceFormResult =
  | { ok: true; geofence: Geofence }
  | { ok: false; errors: Partial<Record<keyof GeofenceFormValues, MessageKey>> };

/** Validates the form and builds the Geofence to save (POST when id is 0, PUT otherwise). */
export function parseGeofenceForm(
  v: GeofenceFormValues,
  speedUnit: SpeedUnit,
  ns: string = DEFAULT_NS,
): GeofenceFormResult {
  const errors: Partial<Record<keyof GeofenceFormValues, MessageKey>> = {};
  const base = geofenceFormSchema.safeParse({ name: v.name, description: v.description });
  if (!base.success)
    for (const issue of base.error.issues) {
      const field = String(issue.path[0]) as keyof GeofenceFormValues;
      errors[field] ??= issue.message as MessageKey;
    }
  if (!parseArea(v.area)) errors.area = K('validation.required');
  const color = v.color.trim();
  if (color && !COLOR_RE.test(color)) errors.color = K('validation.invalidColor');
  if (!Number.isInteger(v.calendarId) || v.calendarId < 0) errors.calendarId = K('validation.invalidOption');
  let knots: number | null = null;
  const typed = v.speedLimit.trim().replace(',', '.');
  if (typed) {
    const n = Number(typed);
    if (!/^[-+]?\d*\.?\d+$/.test(typed) || !Number.isFinite(n))
      errors.speedLimit = K('validation.invalidNumber');
    else if (n < 0) errors.speedLimit = K('validation.notNegative');
    else if (n > 0) knots = Math.round(speedToKnots(n, speedUnit) * 10_000) / 10_000;
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  const keys = geofenceLockKeys(ns);
  const attributes: Attributes = { ...v.attributes };
  for (const k of ['color', 'speedLimit', keys.enter, keys.exit]) delete attributes[k];
  if (color) attributes.color = color.toLowerCase();
  if (knots !== null) attributes.speedLimit = knots;
  if (v.lockOnEnter) attributes[keys.enter] = true;
  if (v.lockOnExit) attributes[keys.exit] = true;
  const name = v.name.trim();
  const description = v.description.trim();
  return {
    ok: true,
    geofence: {
      id: v.id > 0 ? v.id : 0,
      name,
      description: description || null,
      calendarId: v.calendarId,
      area: v.area.trim(),
      attributes,
    },
  };
}

export type GeofenceMeasure = { kind: 'area'; km2: number } | { kind: 'length'; meters: number };

/** What the list shows for a fence: area in km² (circle, polygon) or length in metres (line). */
export function geofenceMeasure(area: GeoArea): GeofenceMeasure {
  return area.type === 'linestring'
    ? { kind: 'length', meters: pathLength(area.points) }
    : { kind: 'area', km2: areaKm2(area) };
}

/** The shape of a stored area string, or null when it is not a valid area. */
export function geofenceShapeOf(areaText: string): GeofenceShape | null {
  const a = parseArea(areaText);
  if (!a) return null;
  return a.type === 'linestring' ? 'line' : a.type;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * The /geofence list: normal fences only (anchors are managed by the device anchor action), matching `query` in
 * name or description (case and accent insensitive), sorted by name.
 */
export function geofenceListFilter<T extends Pick<Geofence, 'attributes' | 'name' | 'description'>>(
  list: readonly T[],
  query: string,
): T[] {
  const q = fold(query.trim());
  const { fences } = splitGeofences(list);
  return fences
    .filter((g) => !q || fold(g.name ?? '').includes(q) || fold(g.description ?? '').includes(q))
    .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'pt-BR', { sensitivity: 'base' }));
}

/**
 * What the /geofence screen lets the user do, as the access table (access.ts) says: the geofence menu bit to see it,
 * the advanced permissions create / edit / delete of the geofences area, and never any change for a readonly user.
 */
export function geofenceActions(ctx: PermissionContext): {
  view: boolean;
  create: boolean;
  edit: boolean;
  delete: boolean;
} {
  return {
    view: allows(ctx, 'screen.geofences'),
    create: allows(ctx, 'geofence.create'),
    edit: allows(ctx, 'geofence.edit'),
    delete: allows(ctx, 'geofence.delete'),
  };
}

/** South-west and north-east corners [west, south, east, north] of an area (a circle's full extent). */
export function areaBounds(area: GeoArea): [number, number, number, number] {
  const pts =
    area.type === 'circle'
      ? [0, 90, 180, 270].map((b) => destination(area.center, b, area.radius))
      : area.points;
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const p of pts) {
    w = Math.min(w, p.longitude);
    e = Math.max(e, p.longitude);
    s = Math.min(s, p.latitude);
    n = Math.max(n, p.latitude);
  }
  return [w, s, e, n];
}
