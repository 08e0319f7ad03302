// The device list's data: a throttled snapshot of the live store (the list does not need 60 updates a second),
// rendered as a transition (React slices the work and lets input and frames through), the whole list sorted once
// per snapshot, then filtered per keystroke (filtering keeps the order, so a keystroke costs one predicate pass
// over precomputed search strings, no sort).
import { useThrottledCallback } from '@mantine/hooks';
import { startTransition, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import {
  countDevices,
  createDeviceFilter,
  isFiltering,
  sortDevices,
  type Device,
  type DeviceSort,
  type Position,
} from '@rastro/domain';
import { useLive, type FilterPatch } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';

export const LIST_THROTTLE_MS = 300;

interface Snapshot {
  devices: Record<number, Device>;
  positions: Record<number, Position>;
  anchored: ReadonlySet<number>;
}

const pick = (): Snapshot => {
  const s = useLive.getState();
  return { devices: s.devices, positions: s.positions, anchored: s.anchored };
};

/** Live data at most every `ms` (the first and the last change always land). */
export function useThrottledLive(ms = LIST_THROTTLE_MS): Snapshot {
  const [snap, setSnap] = useState<Snapshot>(pick);
  const land = useThrottledCallback(() => startTransition(() => setSnap(pick())), ms);
  useEffect(
    () =>
      useLive.subscribe((s, prev) => {
        if (s.devices !== prev.devices || s.positions !== prev.positions || s.anchored !== prev.anchored)
          land();
      }),
    [land],
  );
  return snap;
}

interface NameOrder {
  devices: Record<number, Device>;
  count: number;
  ids: number[];
}

/** Whether `next` has the same ids and names as `prev` (same count, and every changed object kept its name). */
function sameNames(prev: NameOrder, next: Record<number, Device>, count: number): boolean {
  if (prev.count !== count) return false;
  for (const key in next) {
    const d = next[key];
    const before = prev.devices[key];
    if (d !== before && (!before || before.name !== d.name)) return false;
  }
  return true;
}

/**
 * Sorted devices. Name sorting (the default) is reused while ids and names are unchanged: socket updates
 * replace device objects (status, lastUpdate) many times a second without changing the order.
 */
export function useSortedDevices(snap: Snapshot, sort: DeviceSort): Device[] {
  const nameOrder = useRef<NameOrder | null>(null);
  return useMemo(() => {
    const all = Object.values(snap.devices);
    if (sort.key === 'name') {
      const cached = nameOrder.current;
      if (cached && sameNames(cached, snap.devices, all.length)) {
        cached.devices = snap.devices;
        const ordered = cached.ids.map((id) => snap.devices[id]);
        return sort.direction === 'asc' ? ordered : ordered.reverse();
      }
      const asc = sortDevices(all, { key: 'name', direction: 'asc' });
      nameOrder.current = { devices: snap.devices, count: all.length, ids: asc.map((d) => d.id) };
      return sort.direction === 'asc' ? asc : [...asc].reverse();
    }
    return sortDevices(all, sort, { positions: snap.positions, anchoredDeviceIds: snap.anchored });
  }, [snap, sort]);
}

export function filterSorted(
  sorted: readonly Device[],
  filters: FilterPatch,
  query: string,
  snap: Snapshot,
): Device[] {
  return sorted.filter(
    createDeviceFilter(
      { ...filters, query },
      { positions: snap.positions, anchoredDeviceIds: snap.anchored },
    ),
  );
}

export function useDeviceList() {
  const snap = useThrottledLive();
  const sort = useLive((s) => s.sort);
  const filters = useLive((s) => s.filters);
  const query = usePrefs((s) => s.query);
  const deferredQuery = useDeferredValue(query);
  const sorted = useSortedDevices(snap, sort);
  const visible = useMemo(
    () => filterSorted(sorted, filters, deferredQuery, snap),
    [sorted, filters, deferredQuery, snap],
  );
  const counts = useMemo(() => countDevices(Object.values(snap.devices), snap.positions), [snap]);
  return {
    visible,
    counts,
    filtering: isFiltering({ ...filters, query }),
    positions: snap.positions,
    /** Every device (for pickers: categories, brands, "show only"). */
    all: sorted,
  };
}
