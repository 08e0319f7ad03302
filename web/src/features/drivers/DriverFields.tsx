// The fields of the driver form (SPEC §3 Driver): name and uniqueId, the SPEC fields kept in attributes, the QR
// access block and the free attributes.
import { Checkbox, Divider, Group, PasswordInput, SimpleGrid, TextInput, Textarea } from '@mantine/core';
import { DRIVER_DATE_FIELDS, DRIVER_FIELDS, type DriverField, type DriverFormValues } from '@rastro/domain';
import { fieldBinder, flagBinder } from '../../components/boundField.ts';
import { AttributesEditor } from '../../components/AttributesEditor.tsx';
import type { Catalogue } from '../../components/useCatalogue.ts';
import { DriverPhoto } from './DriverPhoto.tsx';

export function DriverFields({
  c,
  form,
  ns,
}: {
  c: Catalogue<'drivers', DriverFormValues>;
  form: DriverFormValues;
  ns: string;
}) {
  const { t, err } = c;
  const setField = (k: DriverField, value: string) => c.edit({ fields: { ...form.fields, [k]: value } });
  const field = fieldBinder({ t, values: form.fields, set: setField, err }, 'driver');
  const top = fieldBinder({ t, values: form, set: (k, value) => c.edit({ [k]: value }), err }, 'driver');
  const setQrKey = (k: string, value: string | boolean) => c.edit({ qr: { ...form.qr, [k]: value } });
  const qrField = fieldBinder({ t, values: form.qr, set: setQrKey, err }, 'driver');
  const qrFlag = flagBinder({ t, values: form.qr, set: setQrKey }, 'driver');
  return (
    <>
      {form.id > 0 && <DriverPhoto driver={c.items.find((d) => d.id === form.id)} ns={ns} />}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput {...top('name')} required />
        <TextInput {...top('uniqueId')} description={t('uniqueIdHint')} required />
        {DRIVER_FIELDS.filter((k) => k !== 'observations').map((k) => (
          <TextInput
            key={k}
            type={DRIVER_DATE_FIELDS.includes(k) ? 'date' : k === 'email' ? 'email' : 'text'}
            {...field(k)}
          />
        ))}
      </SimpleGrid>
      <Textarea {...field('observations')} rows={3} />
      <Divider label={t('qrTitle')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput {...qrField('qrUsername')} autoComplete="off" />
        <PasswordInput
          {...qrField('qrPassword')}
          description={form.qrPasswordSet ? t('fields.qrPasswordKeep') : undefined}
          autoComplete="new-password"
        />
        {(['qrLockTimeout', 'qrLogoutTimeout'] as const).map((k) => (
          <TextInput key={k} {...qrField(k)} inputMode="numeric" />
        ))}
      </SimpleGrid>
      <Group gap="lg">
        {(['qrUnlockDevice', 'qrLogoutOnIgnitionOff', 'qrLockWithoutDriver'] as const).map((k) => (
          <Checkbox key={k} {...qrFlag(k)} />
        ))}
      </Group>
      <AttributesEditor
        ns="drivers"
        rows={form.attributes}
        errors={c.errors}
        onChange={(attributes) => c.edit({ attributes })}
      />
    </>
  );
}
