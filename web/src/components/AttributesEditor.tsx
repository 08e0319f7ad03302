// Key/value editor of Traccar `attributes` (groups, drivers…). Values are typed by attributeValue(): true/false ⇒
// boolean, plain numbers ⇒ number, anything else text. Labels and error keys come from the caller's namespace
// (fields.attributes, fields.key, fields.value, attributesEmpty, addAttribute, removeAttribute).
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { AttributeRow } from '@rastro/domain';
import { useTranslation } from 'react-i18next';

export function AttributesEditor({
  rows,
  onChange,
  errors,
  ns,
}: {
  rows: AttributeRow[];
  onChange(rows: AttributeRow[]): void;
  /** 'attributes.<index>' ⇒ error key of the `ns` namespace. */
  errors: Record<string, string>;
  /** The i18n namespace with the editor's labels. */
  ns: string;
}) {
  const { t } = useTranslation(ns);
  const set = (i: number, patch: Partial<AttributeRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Stack gap={6} data-testid="attributes-editor">
      <Text size="sm" fw={500}>
        {t('fields.attributes')}
      </Text>
      {rows.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('attributesEmpty')}
        </Text>
      )}
      {rows.map((r, i) => (
        <Group key={i} gap={6} align="flex-start" wrap="nowrap">
          {(['key', 'value'] as const).map((field) => (
            <TextInput
              key={field}
              size="xs"
              style={{ flex: 1 }}
              placeholder={t(`fields.${field}`)}
              aria-label={t(`fields.${field}`)}
              value={r[field]}
              // a row's error is its key's (empty or repeated)
              error={field === 'key' && errors[`attributes.${i}`] ? t(errors[`attributes.${i}`]) : undefined}
              onChange={(e) => set(i, { [field]: e.currentTarget.value })}
              data-testid={`attribute-${field}`}
            />
          ))}
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('removeAttribute')}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Button
        size="compact-xs"
        variant="light"
        leftSection={<IconPlus size={12} />}
        onClick={() => onChange([...rows, { key: '', value: '' }])}
        style={{ alignSelf: 'flex-start' }}
        data-testid="attribute-add"
      >
        {t('addAttribute')}
      </Button>
    </Stack>
  );
}
