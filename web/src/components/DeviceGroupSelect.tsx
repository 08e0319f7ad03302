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

export function DeviceGroupSelect({ devices, groups }: { devices: PickerProps; groups: PickerProps }) {
  const live = useLive((s) => s.devices);
  const deviceOptions = useMemo(
    () =>
      Object.values(live)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((d) => ({ value: String(d.id), label: d.name })),
    [live],
  );
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
