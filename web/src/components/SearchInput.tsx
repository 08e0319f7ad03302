// The search box of the lists (catalogue managers, users, geofences, logs, scheduled reports): a small text input
// with the search icon, its label as placeholder and accessible name.
import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

export function SearchInput({
  label,
  value,
  onSearch,
  testId,
  ...rest
}: { label: string; value: string; onSearch(text: string): void; testId?: string } & Omit<
  TextInputProps,
  'value' | 'onChange' | 'label'
>) {
  return (
    <TextInput
      size="xs"
      leftSection={<IconSearch size={14} />}
      placeholder={label}
      aria-label={label}
      value={value}
      onChange={(e) => onSearch(e.currentTarget.value)}
      data-testid={testId}
      {...rest}
    />
  );
}
