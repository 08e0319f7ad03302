// SPEC §2 device list sort: name, lastUpdate and state keys, ascending or descending. Clicking the same key
// toggles the direction, a new key starts ascending, invalid values fall back to name ascending.
// For state keys "ascending" puts devices IN the state first (moving, anchored, locked, ignition on, with a driver,
// with an alarm); ties are broken by name ascending. lastUpdate ascending = oldest first, never-updated first.
import { deviceDriver, hasAlarm, hasIgnition, isDeviceMoving, isLocked, type FilterData } from './filters.ts';
import type { Device, Position } from './types.ts';

export const SORT_KEYS = [
  'name',
  'lastUpdate',
  'motion',
  'anchor',
  'locked',
  'ignition',
  'driver',
  'alert',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

export interface DeviceSort {
  key: SortKey;
  direction: SortDirection;
}

export const DEFAULT_SORT: DeviceSort = Object.freeze({ key: 'name', direction: 'asc' }) as DeviceSort;

export function isSortKey(v: unknown): v is SortKey {
  return typeof v === 'string' && (SORT_KEYS as readonly string[]).includes(v);
}

/**
 * Reads a stored sort: an object {key, direction} or a string 'key', 'key:dir', 'key-dir' or 'key_dir'.
 * Anything invalid gives name ascending.
 */
export function parseSort(value: unknown): DeviceSort {
  let key: unknown;
  let direction: unknown = 'asc';
  if (typeof value === 'string') {
    const m = /^([A-Za-z]+)(?:[:\-_ ](asc|desc))?$/.exec(value.trim());
    if (!m) return { ...DEFAULT_SORT };
    key = m[1];
    direction = m[2] ?? 'asc';
  } else if (value && typeof value === 'object') {
    key = (value as Record<string, unknown>).key;
    direction = (value as Record<string, unknown>).direction ?? 'asc';
  }
  if (!isSortKey(key) || (direction !== 'asc' && direction !== 'desc')) return { ...DEFAULT_SORT };
  return { key, direction };
}

export function formatSort(sort: DeviceSort): string {
  return `${sort.key}:${sort.direction}`;
}

/** Same key toggles the direction; a new key starts ascending; an invalid key gives name ascending. */
export function nextSort(current: DeviceSort, key: unknown): DeviceSort {
  if (!isSortKey(key)) return { ...DEFAULT_SORT };
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function pos(data: FilterData, id: number): Position | undefined {
  const p = data.positions;
  if (!p) return undefined;
  return p instanceof Map ? p.get(id) : (p as Record<number, Position | undefined>)[id];
}

function stateOf(key: SortKey, device: Device, position: Position | undefined, data: FilterData): boolean {
  switch (key) {
    case 'motion':
      return isDeviceMoving(position);
    case 'anchor':
      return !!data.anchoredDeviceIds?.has(device.id);
    case 'locked':
      return isLocked(position);
    case 'ignition':
      return hasIgnition(position);
    case 'driver':
      return deviceDriver(device, position) !== undefined;
    case 'alert':
      return hasAlarm(position);
    default:
      return false;
  }
}

function time(v: string | null): number {
  if (!v) return -Infinity;
  const t = Date.parse(v);
  return Number.isNaN(t) ? -Infinity : t;
}

/** Returns a new sorted array (input untouched). */
export function sortDevices(devices: readonly Device[], sort: DeviceSort, data: FilterData = {}): Device[] {
  const { key, direction } = parseSort(sort);
  const sign = direction === 'asc' ? 1 : -1;
  const byName = (a: Device, b: Device) => collator.compare(a.name ?? '', b.name ?? '') || a.id - b.id;
  let cmp: (a: Device, b: Device) => number;
  if (key === 'name') cmp = (a, b) => sign * byName(a, b);
  else if (key === 'lastUpdate') {
    cmp = (a, b) => {
      const ta = time(a.lastUpdate);
      const tb = time(b.lastUpdate);
      return (ta === tb ? 0 : ta < tb ? -sign : sign) || byName(a, b);
    };
  } else {
    const rank = new Map<number, number>();
    for (const d of devices) rank.set(d.id, stateOf(key, d, pos(data, d.id), data) ? 0 : 1);
    cmp = (a, b) => sign * (rank.get(a.id)! - rank.get(b.id)!) || byName(a, b);
  }
  return [...devices].sort(cmp);
}
