// The device and group pickers of a report or the dashboard (issue #33): the live devices by name and the
// caller's groups, each a searchable multi-select; ids as strings, as Mantine's MultiSelect holds them.
import { MultiSelect } from '@mantine/core';
import { useMemo } from 'react';
import { useLive } from '../stores/live.ts';
import { useResourceOptions } from './useResourceOptions.ts';

interface PickerProps {
  label: string;
  placeholder?: string;
  value: string[];
  onChange(ids: string[]): void;
  testId: string;
}

/** The live devices as a picker's options, by name (the history's and the monitoring desk's pickers too). */
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

export function DeviceGroupSelect({ devices, groups }: { devices: PickerProps; groups: PickerProps }) {
  const deviceOptions = useLiveDeviceOptions();
  const groupOptions = useResourceOptions('groups');
  return (
    <>
      <Picker {...devices} data={deviceOptions} />
      <Picker {...groups} data={groupOptions} />
    </>
  );
}

function Picker({ testId, ...props }: PickerProps & { data: { value: string; label: string }[] }) {
  return <MultiSelect {...props} searchable clearable data-testid={testId} />;
}
