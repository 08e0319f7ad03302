// The two forms of the `integrations` dialog: the payment provider and the invoice defaults.
import {
  Button,
  CopyButton,
  Divider,
  Group,
  NumberInput,
  PasswordInput,
  type NumberInputProps,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import {
  AMOUNT_MODES,
  type AmountMode,
  type InvoiceIntegration,
  type PaymentIntegration,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { HintIcon } from '../../components/floating.tsx';

const num = (v: string | number) => (typeof v === 'number' ? v : Number(v.replace(',', '.')) || 0);

interface FormProps<T> {
  value: T;
  onChange(value: T): void;
  saving: boolean;
  onSave(): void;
}

export function PaymentForm({
  value,
  onChange,
  hook,
  saving,
  onSave,
}: FormProps<PaymentIntegration> & { hook: string }) {
  const { t } = useTranslation('billing');
  return (
    <Stack gap="sm">
      <Select
        label={t('integrations.provider')}
        data={[
          { value: 'none', label: t('integrations.providerNone') },
          { value: 'asaas', label: 'Asaas' },
        ]}
        value={value.provider}
        allowDeselect={false}
        onChange={(v) => onChange({ ...value, provider: v === 'asaas' ? 'asaas' : 'none' })}
        data-testid="integrations-provider"
      />
      <Switch
        label={t('integrations.sandbox')}
        checked={value.sandbox}
        onChange={(e) => onChange({ ...value, sandbox: e.currentTarget.checked })}
        data-testid="integrations-sandbox"
      />
      {(['apiKey', 'webhookToken'] as const).map((k) => (
        <PasswordInput
          key={k}
          label={t(`integrations.${k}`)}
          description={k === 'apiKey' ? t('integrations.secretHint') : undefined}
          autoComplete="off"
          value={value[k]}
          onChange={(e) => onChange({ ...value, [k]: e.currentTarget.value })}
          data-testid={`integrations-${k}`}
        />
      ))}
      <TextInput
        label={t('integrations.webhookUrl')}
        readOnly
        value={hook}
        data-testid="integrations-webhookUrl"
        rightSection={
          <CopyButton value={hook}>
            {({ copied, copy }) => (
              <HintIcon
                label={copied ? t('integrations.copied') : t('integrations.copy')}
                aria-label={t('integrations.copy')}
                onClick={copy}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </HintIcon>
            )}
          </CopyButton>
        }
      />
      <Group justify="flex-end">
        <Button onClick={onSave} loading={saving} data-testid="integrations-save-payment">
          {t('save')}
        </Button>
      </Group>
    </Stack>
  );
}

type NumberKey = 'firstDueDay' | 'fine' | 'interest' | 'discount' | 'discountDays';

export function InvoiceDefaultsForm({ value, onChange, saving, onSave }: FormProps<InvoiceIntegration>) {
  const { t } = useTranslation('billing');
  const modes = AMOUNT_MODES.map((m) => ({ value: m, label: t(`integrations.mode.${m}`) }));
  const number = (k: NumberKey, props: NumberInputProps & { 'data-testid'?: string }) => (
    <NumberInput
      label={t(`integrations.${k}`)}
      value={value[k]}
      onChange={(v) => onChange({ ...value, [k]: num(v) })}
      {...props}
    />
  );
  const mode = (k: 'fineMode' | 'discountMode') => (
    <Select
      label={t(`integrations.${k}`)}
      data={modes}
      value={value[k]}
      allowDeselect={false}
      onChange={(v) => onChange({ ...value, [k]: (v as AmountMode) ?? 'PERCENTAGE' })}
    />
  );
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {number('firstDueDay', {
          min: 1,
          max: 28,
          allowDecimal: false,
          'data-testid': 'integrations-firstDueDay',
        })}
        <TextInput
          label={t('fields.description')}
          value={value.description}
          onChange={(e) => onChange({ ...value, description: e.currentTarget.value })}
          data-testid="integrations-description"
        />
        {number('fine', { min: 0, decimalScale: 2 })}
        {mode('fineMode')}
        {number('interest', { min: 0, max: 100, decimalScale: 2 })}
        <div />
        {number('discount', { min: 0, decimalScale: 2 })}
        {mode('discountMode')}
        {number('discountDays', { min: 0, max: 365, allowDecimal: false })}
      </SimpleGrid>
      <Divider />
      <Group justify="flex-end">
        <Button onClick={onSave} loading={saving} data-testid="integrations-save-invoice">
          {t('save')}
        </Button>
      </Group>
    </Stack>
  );
}
