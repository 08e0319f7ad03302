// The device and group pickers of a report or the dashboard (issue #33): the live devices by name and the
// caller's groups, each a searchable multi-select; ids as strings, as Mantine's MultiSelect holds them.
import { MultiSelect } from '@mantine/core';
import { useLiveDeviceOptions, useResourceOptions } from './useResourceOptions.ts';

interface PickerProps {
  label: string;
  placeholder?: string;
  value: string[];
  onChange(ids: string[]): void;
  testId: string;
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
