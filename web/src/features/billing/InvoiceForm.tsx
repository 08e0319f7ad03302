// The new-invoice form of the `invoicesManager` dialog: value, due date and description for the picked user.
import { Alert, Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { InvoiceFormValues } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { fieldBinder } from '../../components/boundField.ts';
import { DateField } from '../../components/DateField.tsx';

export function InvoiceForm({
  form,
  onChange,
  field,
  userLabel,
  saving,
  onBack,
  onSave,
}: {
  form: InvoiceFormValues;
  onChange(form: InvoiceFormValues): void;
  field(key: string): string | undefined;
  userLabel: string;
  saving: boolean;
  onBack(): void;
  onSave(): void;
}) {
  const { t } = useTranslation('billing');
  const bound = fieldBinder(
    { t, values: form, set: (k, v) => onChange({ ...form, [k]: v }), err: field },
    'invoice',
  );
  return (
    <Stack gap="sm" data-testid="invoice-form">
      <Text size="sm">
        {t('fields.user')}: <b>{userLabel}</b>
      </Text>
      {field('userId') ? <Alert color="red">{t('pickUser')}</Alert> : null}
      <Group grow align="flex-start">
        <TextInput {...bound('value')} required inputMode="decimal" />
        <DateField
          {...bound('dueDate')}
          required
          onChange={(value) => onChange({ ...form, dueDate: value })}
        />
      </Group>
      <Textarea {...bound('description')} rows={2} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          {t('back')}
        </Button>
        <Button onClick={onSave} loading={saving} data-testid="invoice-save">
          {t('save')}
        </Button>
      </Group>
    </Stack>
  );
}
