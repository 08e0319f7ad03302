// The live store (zustand): devices by id, latest positions by device id, recent events, the selected device,
// device filters/sort and the map modes (trail follows a device, route mode suspends map moves).
// Socket messages arrive in batches (coalesced per animation frame by api/socket.ts) and are applied in one set().
import { create } from 'zustand';
import {
  DEFAULT_FILTER_STATE,
  DEFAULT_SORT,
  attrPresent,
  createDeviceFilter,
  nextSort,
  type Device,
  type DeviceFilterState,
  type DeviceSort,
  type Event,
  type Position,
  type SocketMessage,
} from '@rastro/domain';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { api } from '../api/http.ts';

/** How many recent events the store keeps (the notification stack reads them). */
export const MAX_EVENTS = 200;
/** Points kept per device for the trail of trail mode. */
export const TRAIL_LENGTH = 200;

export type FilterPatch = Omit<DeviceFilterState, 'query'>;

export interface LiveState {
  devices: Record<number, Device>;
  /** Latest position per device id. */
  positions: Record<number, Position>;
  events: Event[];
  /** Recent track of the followed device (trail mode): [lon, lat] pairs, oldest first. */
  trail: Array<[number, number]>;
  selectedId: number | null;
  /** Filters of SPEC §4 except the text query, which lives in prefs (persisted `query`). */
  filters: FilterPatch;
  sort: DeviceSort;
  /** Trail mode: the map follows this device and draws its recent track. */
  trailId: number | null;
  /** Route mode (history): the live map does not move the camera. */
  routeMode: boolean;
  devicesLoaded: boolean;
  /** Bumps on every "fly to the selected device" request (same id twice still flies). */
  focusSeq: number;
  /** Devices with an anchor geofence (from GET /api/geofences, attributes isAnchor + deviceId). */
  anchored: ReadonlySet<number>;

  setDevices(list: Device[]): void;
  setPositions(list: Position[]): void;
  /** Applies one coalesced batch of socket messages. */
  applyBatch(batch: SocketMessage): void;
  /** Selects a device; `focus` asks the map to fly to it. */
  select(id: number | null, focus?: boolean): void;
  setFilters(update: (f: FilterPatch) => FilterPatch): void;
  resetFilters(): void;
  /** SPEC §2: same key toggles the direction, a new key starts ascending. */
  sortBy(key: string): void;
  setTrail(id: number | null): void;
  setRouteMode(on: boolean): void;
  setAnchored(ids: ReadonlySet<number>): void;
  clear(): void;
}

const { query: _q, ...defaultFilters } = DEFAULT_FILTER_STATE;
export const DEFAULT_FILTERS: FilterPatch = { ...defaultFilters, advanced: {}, hiddenCategories: [] };

let sessionRecheck: () => void = () => {};
/** The shell registers what "re-check the session" means (SPEC §4: a device losing its qrDriverId). */
export function setSessionRecheck(fn: () => void): void {
  sessionRecheck = fn;
}
type AlarmsListener = (alarms: NonNullable<SocketMessage['alarms']>) => void;
const alarmListeners = new Set<AlarmsListener>();
/** `alarms` socket messages (issue #32): the monitoring desk's new, folded or handled alarms. */
export function onAlarmsMessage(fn: AlarmsListener): () => void {
  alarmListeners.add(fn);
  return () => alarmListeners.delete(fn);
}

const byId = <T extends { id: number }>(list: T[]) => {
  const out: Record<number, T> = {};
  for (const x of list) out[x.id] = x;
  return out;
};

/** True when a newer-or-equal fix should replace the stored position. */
function isNewer(prev: Position | undefined, next: Position): boolean {
  return !prev || next.id === prev.id || Date.parse(next.fixTime) >= Date.parse(prev.fixTime);
}

/**
 * The store without devices gone from the user's sight (deleted or unlinked, the socket's `removedDevices`): out of
 * the list and the map, and no longer selected or followed.
 */
function withoutDevices(s: LiveState, patch: Partial<LiveState>, ids: number[]): Partial<LiveState> {
  const devices = { ...(patch.devices ?? s.devices) };
  const positions = { ...(patch.positions ?? s.positions) };
  for (const id of ids) {
    delete devices[id];
    delete positions[id];
  }
  const out: Partial<LiveState> = { devices, positions };
  if (s.selectedId !== null && ids.includes(s.selectedId)) out.selectedId = null;
  if (s.trailId !== null && ids.includes(s.trailId)) Object.assign(out, { trailId: null, trail: [] });
  return out;
}

/** What a signed-out store holds (clear() goes back to it; filters, sort and the map modes stay). */
const SIGNED_OUT = {
  devices: {},
  positions: {},
  events: [],
  trail: [],
  selectedId: null,
  trailId: null,
  devicesLoaded: false,
} satisfies Partial<LiveState>;

export const useLive = create<LiveState>((set, get) => ({
  ...SIGNED_OUT,
  filters: DEFAULT_FILTERS,
  sort: DEFAULT_SORT,
  routeMode: false,
  focusSeq: 0,
  anchored: new Set<number>(),

  setDevices(list) {
    set({ devices: byId(list), devicesLoaded: true });
  },
  setPositions(list) {
    const positions = { ...get().positions };
    for (const p of list) if (isNewer(positions[p.deviceId], p)) positions[p.deviceId] = p;
    set({ positions });
  },
  applyBatch(batch) {
    const s = get();
    const patch: Partial<LiveState> = {};
    let recheck = false;
    if (batch.devices?.length) {
      const devices = { ...s.devices };
      for (const d of batch.devices) {
        const prev = devices[d.id];
        if (prev && attrPresent(prev.attributes?.qrDriverId) && !attrPresent(d.attributes?.qrDriverId))
          recheck = true;
        devices[d.id] = d;
      }
      patch.devices = devices;
    }
    if (batch.positions?.length) {
      const positions = { ...s.positions };
      let trail = s.trail;
      for (const p of batch.positions) {
        const prev = positions[p.deviceId];
        if (!isNewer(prev, p)) continue;
        positions[p.deviceId] = p;
        // a position seen again (the socket's first message after a reconnect) is no new trail point
        if (p.deviceId === s.trailId && prev?.id !== p.id) {
          trail = [...trail, [p.longitude, p.latitude] as [number, number]].slice(-TRAIL_LENGTH);
        }
      }
      patch.positions = positions;
      if (trail !== s.trail) patch.trail = trail;
    }
    if (batch.events?.length) {
      patch.events = [...s.events, ...batch.events].slice(-MAX_EVENTS);
    }
    if (batch.removedDevices?.length) Object.assign(patch, withoutDevices(s, patch, batch.removedDevices));
    if (Object.keys(patch).length) set(patch);
    if (batch.alarms?.length) for (const fn of alarmListeners) fn(batch.alarms);
    if (recheck) sessionRecheck();
  },
  select(id, focus = false) {
    set((s) => ({ selectedId: id, focusSeq: focus ? s.focusSeq + 1 : s.focusSeq }));
  },
  setFilters(update) {
    set((s) => ({ filters: update(s.filters) }));
  },
  resetFilters() {
    set({ filters: DEFAULT_FILTERS });
  },
  sortBy(key) {
    set((s) => ({ sort: nextSort(s.sort, key) }));
  },
  setTrail(id) {
    const p = id === null ? undefined : get().positions[id];
    set({ trailId: id, trail: p ? [[p.longitude, p.latitude]] : [] });
  },
  setRouteMode(on) {
    set({ routeMode: on });
  },
  setAnchored(ids) {
    const prev = get().anchored;
    if (prev.size === ids.size && [...ids].every((id) => prev.has(id))) return;
    set({ anchored: ids });
  },
  clear() {
    set(SIGNED_OUT);
  },
}));

/** SPEC §9: GET /api/positions?id= in batches of 500 ids. */
export const POSITIONS_BATCH = 500;

/** Fetches the positions of the given position ids, 500 per request, in order. */
export async function fetchPositionsByIds(
  ids: number[],
  get: (query: { id: number[] }) => Promise<Position[]> = (q) => api.get<Position[]>('/positions', q),
): Promise<Position[]> {
  const out: Position[] = [];
  for (let i = 0; i < ids.length; i += POSITIONS_BATCH) {
    out.push(...(await get({ id: ids.slice(i, i + POSITIONS_BATCH) })));
  }
  return out;
}

/**
 * Reloads devices and their latest positions (after a reconnect, so nothing sent meanwhile is missed); the devices
 * in `caughtUp` already got theirs in order from the catch-up (stores/liveCatchUp.ts), through the trail.
 */
export async function resyncLive(caughtUp: ReadonlySet<number> = new Set()): Promise<void> {
  const devices = await api.get<Device[]>('/devices');
  useLive.getState().setDevices(devices);
  const ids = devices
    .filter((d) => !caughtUp.has(d.id))
    .map((d) => d.positionId)
    .filter((id) => id > 0);
  if (ids.length) useLive.getState().setPositions(await fetchPositionsByIds(ids));
}

// ---------------------------------------------------------------------------------------------------------------
// Filtered devices, shared by the list and the map (one computation per change, memoised).

const POSITION_ADVANCED = ['driver', 'ignition', 'locked'] as const;

/** Whether the filter result can change when only positions change. */
export function filtersUsePositions(f: FilterPatch): boolean {
  return (
    f.motion ||
    f.combined === 'moving' ||
    f.combined === 'stopped' ||
    POSITION_ADVANCED.some((k) => f.advanced[k] !== undefined && f.advanced[k] !== '')
  );
}

interface FilterCache {
  devices: Record<number, Device>;
  positions: Record<number, Position>;
  filters: FilterPatch;
  query: string;
  anchored: ReadonlySet<number>;
  result: Device[];
}
let filterCache: FilterCache | null = null;

/** Devices passing every filter of SPEC §4 (deleted-x-y uniqueIds always hidden), memoised. */
export function selectFiltered(
  devices: Record<number, Device>,
  positions: Record<number, Position>,
  filters: FilterPatch,
  query: string,
  anchored: ReadonlySet<number>,
): Device[] {
  const c = filterCache;
  if (
    c &&
    c.devices === devices &&
    c.filters === filters &&
    c.query === query &&
    c.anchored === anchored &&
    (c.positions === positions || !filtersUsePositions(filters))
  ) {
    return c.result;
  }
  const pred = createDeviceFilter({ ...filters, query }, { positions, anchoredDeviceIds: anchored });
  const result = Object.values(devices).filter(pred);
  filterCache = { devices, positions, filters, query, anchored, result };
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// The live map instance, for other features that draw on it (history route, geofence editing). Route mode
// (setRouteMode) stops the live map from moving the camera while they do.

let liveMap: MapLibreMap | null = null;
const mapListeners = new Set<(map: MapLibreMap | null) => void>();

export function setLiveMap(map: MapLibreMap | null): void {
  liveMap = map;
  for (const fn of mapListeners) fn(map);
}
export function getLiveMap(): MapLibreMap | null {
  return liveMap;
}
/** Calls `fn` now (if the map exists) and whenever the map is created or destroyed. Returns unsubscribe. */
export function onLiveMap(fn: (map: MapLibreMap | null) => void): () => void {
  mapListeners.add(fn);
  if (liveMap) fn(liveMap);
  return () => mapListeners.delete(fn);
}
