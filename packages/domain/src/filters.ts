// SPEC §4: device filters, motion, counts and the text query. Built for 10,000 devices per keystroke: the
// lower-cased search text of each device is computed once per device object (WeakMap keyed by identity) and
// every predicate is O(1) per device.
import { attrBool, attrPresent, attrString } from './attributes.ts';
import { statusColor } from './map.ts';
import type { Device, DeviceStatus, Position } from './types.ts';

export const STATUS_FILTERS = ['all', 'online', 'offline', 'unknown'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const COMBINED_FILTERS = ['all', 'online', 'offline', 'unknown', 'moving', 'stopped'] as const;
export type CombinedFilter = (typeof COMBINED_FILTERS)[number];

export const DEVICE_STATES = [
  'installed',
  'in_service',
  'in_stock',
  'with_failures',
  'company',
  'withdrawn',
] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

export const ADVANCED_FILTER_TYPES = [
  'none',
  'anchor',
  'driver',
  'ignition',
  'locked',
  'gps_brand',
  'gps_model',
  'technology',
] as const;
export type AdvancedFilterType = (typeof ADVANCED_FILTER_TYPES)[number];

export const MOTION_VALUES = ['moving', 'stopped', 'idle'] as const;
export type MotionValue = (typeof MOTION_VALUES)[number];

/**
 * One value per advanced filter type ('none' is the absence of any). anchor/driver/ignition/locked take
 * 'yes' | 'no'; driver may instead take a driver uniqueId; gps_brand/gps_model/technology take the exact text
 * (compared case-insensitively).
 */
export type AdvancedFilters = Partial<Record<Exclude<AdvancedFilterType, 'none'>, string>>;

export interface DeviceFilterState {
  status: StatusFilter;
  motion: boolean;
  combined: CombinedFilter;
  /** device.state attribute value, or 'all'. */
  deviceState: DeviceState | 'all';
  advanced: AdvancedFilters;
  hiddenCategories: string[];
  /** Show only this device id (null = all). */
  onlyDeviceId: number | null;
  query: string;
}

export const DEFAULT_FILTER_STATE: DeviceFilterState = Object.freeze({
  status: 'all',
  motion: false,
  combined: 'all',
  deviceState: 'all',
  advanced: {},
  hiddenCategories: [],
  onlyDeviceId: null,
  query: '',
}) as DeviceFilterState;

// ---------------------------------------------------------------------------------------------------------------
// Transitions

/** Choosing a status filter turns the motion toggle off. */
export function setStatusFilter(state: DeviceFilterState, status: StatusFilter): DeviceFilterState {
  return { ...state, status, motion: false };
}

/** Turning motion on resets the status filter to all. */
export function setMotionFilter(state: DeviceFilterState, motion: boolean): DeviceFilterState {
  return motion ? { ...state, motion: true, status: 'all' } : { ...state, motion: false };
}

export function setCombinedFilter(state: DeviceFilterState, combined: CombinedFilter): DeviceFilterState {
  return { ...state, combined };
}

/** Sets (or with 'none' / empty value clears) one advanced filter; one value per type, types combine. */
export function setAdvancedFilter(
  state: DeviceFilterState,
  type: AdvancedFilterType,
  value: string | null,
): DeviceFilterState {
  if (type === 'none') return { ...state, advanced: {} };
  const advanced = { ...state.advanced };
  if (value === null || value.trim() === '') delete advanced[type];
  else advanced[type] = value;
  return { ...state, advanced };
}

export function toggleHiddenCategory(state: DeviceFilterState, category: string): DeviceFilterState {
  const set = new Set(state.hiddenCategories);
  if (set.has(category)) set.delete(category);
  else set.add(category);
  return { ...state, hiddenCategories: [...set] };
}

/** The filtering flag: on when any filter differs from its default. */
export function isFiltering(state: DeviceFilterState): boolean {
  return (
    state.status !== 'all' ||
    state.motion ||
    state.combined !== 'all' ||
    state.deviceState !== 'all' ||
    Object.values(state.advanced).some((v) => v !== undefined && v !== '') ||
    state.hiddenCategories.length > 0 ||
    state.onlyDeviceId !== null ||
    state.query.trim() !== ''
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Device facts

/** uniqueId with three dash-separated parts, the first 'deleted' (lazy deletion): hidden everywhere. */
export function isDeletedUniqueId(uniqueId: string | null | undefined): boolean {
  // called for every device on every filter pass: no split, no allocation
  if (!uniqueId || !uniqueId.startsWith('deleted-')) return false;
  const second = uniqueId.indexOf('-', 8);
  return second >= 0 && uniqueId.indexOf('-', second + 1) < 0;
}

export function isDeviceMoving(position: Position | null | undefined): boolean {
  return !!position && attrBool(position.attributes?.motion);
}

const HEX_COLOUR = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** A device's colour on the map and in the list: `{ns}.color` when it is a hex colour, else its status colour. */
export function deviceColor(device: Device, position: Position | null | undefined, ns: string): string {
  const custom = attrString(device.attributes?.[`${ns}.color`])?.trim();
  if (custom && HEX_COLOUR.test(custom)) return custom.startsWith('#') ? custom : `#${custom}`;
  return statusColor(device.status, isDeviceMoving(position));
}

/** moving = motion attribute; idle = not moving with ignition on; stopped otherwise (also without position). */
export function motionValue(position: Position | null | undefined): MotionValue {
  if (!position) return 'stopped';
  if (attrBool(position.attributes?.motion)) return 'moving';
  if (attrBool(position.attributes?.ignition)) return 'idle';
  return 'stopped';
}

/** Driver on the device: position driverUniqueId, else device attribute driverUniqueId. */
export function deviceDriver(device: Device, position: Position | null | undefined): string | undefined {
  const p = attrString(position?.attributes?.driverUniqueId);
  if (p && p.trim() !== '') return p;
  const d = attrString(device.attributes?.driverUniqueId);
  return d && d.trim() !== '' ? d : undefined;
}

/**
 * The driver on the device as people read it, as the reports name a trip's driver (issue #28): the driver
 * catalogue's name for deviceDriver's code, else a name the position carries (`driverName`); the code alongside.
 * Undefined when neither a code nor a name is known.
 */
export function deviceDriverLabel(
  device: Device,
  position: Position | null | undefined,
  drivers: readonly { uniqueId: string; name: string }[] | null | undefined,
): { name: string | undefined; code: string | undefined } | undefined {
  const code = deviceDriver(device, position);
  const known = code !== undefined ? drivers?.find((d) => d.uniqueId === code)?.name : undefined;
  const carried = attrString(position?.attributes?.driverName);
  const name = known?.trim() ? known : carried?.trim() ? carried : undefined;
  if (code === undefined && name === undefined) return undefined;
  return { name, code };
}

export function isLocked(position: Position | null | undefined): boolean {
  return !!position && attrBool(position.attributes?.blocked);
}

export function hasIgnition(position: Position | null | undefined): boolean {
  return !!position && attrBool(position.attributes?.ignition);
}

export function hasAlarm(position: Position | null | undefined): boolean {
  return !!position && attrPresent(position.attributes?.alarm);
}

// ---------------------------------------------------------------------------------------------------------------
// Text search

/** Portuguese word for 'unknown', used both in the search text and in queries. */
export const UNKNOWN_PT = 'desconhecido';

const searchCache = new WeakMap<Device, string>();

function pushValue(parts: string[], v: unknown): void {
  if (v === null || v === undefined) return;
  if (typeof v === 'object') {
    for (const inner of Object.values(v as Record<string, unknown>)) pushValue(parts, inner);
    return;
  }
  const s = String(v).toLowerCase();
  parts.push(s === 'unknown' ? UNKNOWN_PT : s);
}

/**
 * Lower-cased text of every field and attribute value of a device ('unknown' stored as 'desconhecido'), cached
 * by object identity: a device replaced by a socket update (new object) is recomputed, an unchanged one is not.
 */
export function deviceSearchText(device: Device): string {
  let s = searchCache.get(device);
  if (s === undefined) {
    const parts: string[] = [];
    for (const [key, value] of Object.entries(device)) {
      if (key === 'attributes') continue;
      pushValue(parts, value);
    }
    pushValue(parts, device.attributes);
    s = parts.join('\u0001');
    searchCache.set(device, s);
  }
  return s;
}

/** Builds the cached search text of every device ahead of the first keystroke (e.g. after a list load). */
export function warmSearchCache(devices: readonly Device[]): void {
  for (const d of devices) deviceSearchText(d);
}

/** Normalised query: trimmed, lower-cased, 'unknown' mapped to 'desconhecido'. */
export function normalizeQuery(query: string): string {
  const q = query.trim().toLowerCase();
  return q.replace(/\bunknown\b/g, UNKNOWN_PT);
}

export function matchesQuery(device: Device, normalizedQuery: string): boolean {
  return normalizedQuery === '' || deviceSearchText(device).includes(normalizedQuery);
}

// ---------------------------------------------------------------------------------------------------------------
// Filtering

export type PositionLookup = ReadonlyMap<number, Position> | Readonly<Record<number, Position | undefined>>;

function lookup(positions: PositionLookup | undefined, deviceId: number): Position | undefined {
  if (!positions) return undefined;
  if (positions instanceof Map) return positions.get(deviceId);
  return (positions as Record<number, Position | undefined>)[deviceId];
}

export interface FilterData {
  /** Latest position per device id. */
  positions?: PositionLookup;
  /** Ids of devices with an anchor geofence. */
  anchoredDeviceIds?: ReadonlySet<number>;
}

function yesNo(value: string, actual: boolean): boolean {
  const v = value.toLowerCase();
  if (v === 'yes' || v === 'true' || v === 'on') return actual;
  if (v === 'no' || v === 'false' || v === 'off') return !actual;
  return true;
}

function sameText(a: unknown, b: string): boolean {
  const s = attrString(a);
  return s !== undefined && s.trim().toLowerCase() === b.trim().toLowerCase();
}

function statusMatches(status: DeviceStatus, filter: StatusFilter): boolean {
  return filter === 'all' || status === filter;
}

function combinedMatches(status: DeviceStatus, moving: boolean, filter: CombinedFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'moving':
      return status === 'online' && moving;
    case 'stopped':
      return status === 'online' && !moving;
    default:
      return status === filter;
  }
}

/** Builds a predicate once per filter state (query normalised once), then applies it per device. */
export function createDeviceFilter(
  state: DeviceFilterState,
  data: FilterData = {},
): (device: Device) => boolean {
  const q = normalizeQuery(state.query);
  const hidden = new Set(state.hiddenCategories);
  const adv = Object.entries(state.advanced).filter(
    (e): e is [Exclude<AdvancedFilterType, 'none'>, string] => typeof e[1] === 'string' && e[1] !== '',
  );
  return (device) => {
    if (isDeletedUniqueId(device.uniqueId)) return false;
    if (state.onlyDeviceId !== null && device.id !== state.onlyDeviceId) return false;
    if (hidden.size > 0 && hidden.has(device.category ?? 'default')) return false;
    const position = lookup(data.positions, device.id);
    const moving = isDeviceMoving(position);
    if (!statusMatches(device.status, state.status)) return false;
    if (state.motion && !(device.status === 'online' && moving)) return false;
    if (!combinedMatches(device.status, moving, state.combined)) return false;
    if (state.deviceState !== 'all' && !sameText(device.attributes?.['device.state'], state.deviceState))
      return false;
    for (const [type, value] of adv) {
      switch (type) {
        case 'anchor':
          if (!yesNo(value, !!data.anchoredDeviceIds?.has(device.id))) return false;
          break;
        case 'driver': {
          const driver = deviceDriver(device, position);
          const v = value.toLowerCase();
          if (['yes', 'no', 'true', 'false', 'on', 'off'].includes(v)) {
            if (!yesNo(v, driver !== undefined)) return false;
          } else if (driver === undefined || driver.toLowerCase() !== v) return false;
          break;
        }
        case 'ignition':
          if (!yesNo(value, hasIgnition(position))) return false;
          break;
        case 'locked':
          if (!yesNo(value, isLocked(position))) return false;
          break;
        case 'gps_brand':
          if (!sameText(device.attributes?.['device.gpsBrand'], value)) return false;
          break;
        case 'gps_model':
          if (!sameText(device.attributes?.['device.model'] ?? device.model, value)) return false;
          break;
        case 'technology':
          if (!sameText(device.attributes?.['device.technology'], value)) return false;
          break;
      }
    }
    return matchesQuery(device, q);
  };
}

export function filterDevices(
  devices: readonly Device[],
  state: DeviceFilterState,
  data: FilterData = {},
): Device[] {
  const pred = createDeviceFilter(state, data);
  const out: Device[] = [];
  for (const d of devices) if (pred(d)) out.push(d);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Counts

export interface DeviceCounts {
  online: number;
  offline: number;
  unknown: number;
  /** online and moving */
  motion: number;
  all: number;
}

/** Counts over visible devices (hidden deleted-x-y uniqueIds excluded). */
export function countDevices(devices: readonly Device[], positions?: PositionLookup): DeviceCounts {
  const c: DeviceCounts = { online: 0, offline: 0, unknown: 0, motion: 0, all: 0 };
  for (const d of devices) {
    if (isDeletedUniqueId(d.uniqueId)) continue;
    c.all++;
    if (d.status === 'online') {
      c.online++;
      if (isDeviceMoving(lookup(positions, d.id))) c.motion++;
    } else if (d.status === 'offline') c.offline++;
    else c.unknown++;
  }
  return c;
}

/** Distinct non-empty values of a device attribute (for gps_brand / gps_model / technology pickers). */
export function distinctAttributeValues(devices: readonly Device[], key: string): string[] {
  const set = new Set<string>();
  for (const d of devices) {
    const v = attrString(d.attributes?.[key]);
    if (v && v.trim() !== '') set.add(v.trim());
  }
  return [...set].sort((a, b) => a.localeCompare(b));
}
