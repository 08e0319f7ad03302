// The new-invoice form of the `invoicesManager` dialog: value, due date and description for the picked user.
import { Alert, Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { InvoiceFormValues } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
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
  return (
    <Stack gap="sm" data-testid="invoice-form">
      <Text size="sm">
        {t('fields.user')}: <b>{userLabel}</b>
      </Text>
      {field('userId') ? <Alert color="red">{t('pickUser')}</Alert> : null}
      <Group grow align="flex-start">
        <TextInput
          label={t('fields.value')}
          required
          inputMode="decimal"
          value={form.value}
          error={field('value')}
          onChange={(e) => onChange({ ...form, value: e.currentTarget.value })}
          data-testid="invoice-value"
        />
        <DateField
          label={t('fields.dueDate')}
          required
          value={form.dueDate}
          error={field('dueDate')}
          onChange={(value) => onChange({ ...form, dueDate: value })}
          data-testid="invoice-dueDate"
        />
      </Group>
      <Textarea
        label={t('fields.description')}
        rows={2}
        value={form.description}
        error={field('description')}
        onChange={(e) => onChange({ ...form, description: e.currentTarget.value })}
        data-testid="invoice-description"
      />
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
