// The fields of a command: type (limited to `types` when given), description, text channel, attributes by type.
import { Select, Stack, Switch, TextInput } from '@mantine/core';
import { COMMAND_TYPES, traccarName } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { choiceBinder, fieldBinder, flagBinder } from '../../components/boundField.ts';
import { attributeFields, type CommandFormValues } from './commandForm.ts';

export function CommandFields({
  value,
  onChange,
  errors,
  types,
}: {
  value: CommandFormValues;
  onChange(next: CommandFormValues): void;
  errors: Record<string, string>;
  types?: string[];
}) {
  const { t, i18n } = useTranslation('commands');
  const list = types?.length ? types : [...COMMAND_TYPES];
  const err = (k: string) => (errors[k] ? t(errors[k]) : undefined);
  const set = (k: string, v: string | boolean) => onChange({ ...value, [k]: v });
  const bound = { t, values: value, set, err };
  const setAttr = (key: string, v: string | boolean) =>
    onChange({ ...value, attributes: { ...value.attributes, [key]: v } });
  return (
    <Stack gap="xs">
      <Select
        {...choiceBinder(bound, 'command')('type')}
        data={list.map((type) => ({ value: type, label: traccarName('commandTypes', type, i18n.language) }))}
        searchable
        allowDeselect={false}
        onChange={(type) => onChange({ ...value, type: type ?? '', attributes: {} })}
        comboboxProps={{ withinPortal: true, zIndex: 1000 }}
      />
      <TextInput {...fieldBinder(bound, 'command')('description')} />
      <Switch {...flagBinder(bound, 'command')('textChannel')} data-testid="command-text-channel" />
      {attributeFields(value.type).map((field) =>
        field.kind === 'boolean' ? (
          <Switch
            key={field.key}
            label={t(`attributes.${field.key}`, { defaultValue: field.key })}
            checked={value.attributes[field.key] === true}
            onChange={(e) => setAttr(field.key, e.currentTarget.checked)}
            data-testid={`command-attr-${field.key}`}
          />
        ) : (
          <TextInput
            key={field.key}
            label={t(`attributes.${field.key}`, { defaultValue: field.key })}
            inputMode={field.kind === 'number' ? 'decimal' : undefined}
            value={
              typeof value.attributes[field.key] === 'string' ? (value.attributes[field.key] as string) : ''
            }
            onChange={(e) => setAttr(field.key, e.currentTarget.value)}
            error={err(`attributes.${field.key}`)}
            data-testid={`command-attr-${field.key}`}
          />
        ),
      )}
    </Stack>
  );
}
