// The options of a Select or MultiSelect that picks items of one catalogue by name (issue #33): the id as text (as
// Mantine holds values), the name as label; sorted by name when asked, and led by a "none" choice of value '0' (a
// fence without a calendar, a device without a group). Used by the geofence, device and computed attribute forms;
// the notification rules and logs build the same lists by hand (the live devices': useLiveDeviceOptions below).
import type { UseQueryOptions } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useResourceList, type ResourceType, type ResourceTypes } from '../api/resources.ts';
import { useLive } from '../stores/live.ts';

/** The catalogues whose items have a name. */
type Named = { [R in ResourceType]: ResourceTypes[R] extends { name: string } ? R : never }[ResourceType];

export interface ResourceOption {
  value: string;
  label: string;
}

export function useResourceOptions<R extends Named>(
  type: R,
  {
    none,
    sorted,
    ...query
  }: { none?: string; sorted?: boolean } & Partial<UseQueryOptions<ResourceTypes[R][]>> = {},
): ResourceOption[] {
  const list = useResourceList(type, undefined, query);
  return useMemo(() => {
    const items = (list.data ?? []).map((r) => ({
      value: String(r.id),
      label: (r as { name: string }).name,
    }));
    if (sorted) items.sort((a, b) => a.label.localeCompare(b.label));
    return none === undefined ? items : [{ value: '0', label: none }, ...items];
  }, [list.data, none, sorted]);
}

/** The live devices as a picker's options, by name (the reports', the history's and the monitoring desk's). */
export function useLiveDeviceOptions() {
  const live = useLive((s) => s.devices);
  return useMemo(
    () =>
      Object.values(live)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((d) => ({ value: String(d.id), label: d.name })),
    [live],
  );
}
