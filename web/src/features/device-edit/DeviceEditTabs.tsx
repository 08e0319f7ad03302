// The tabs of the device form (DeviceEditDialog.tsx): general (name, identifier, group, category, icon, state,
// colours, driver, QR-driver flag), chip, vehicle (with odometer and engine hours) and installation with photos.
import { ColorInput, Select, SimpleGrid, Switch, Tabs, TextInput, Textarea } from '@mantine/core';
import { DEVICE_STATES, MAP_ICON_TYPES, traccarName } from '@rastro/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceList } from '../../api/resources.ts';
import { useResourceOptions } from '../../components/useResourceOptions.ts';
import { INSTALLATION_FIELDS } from './deviceForm.ts';
import { choiceBinder, fieldBinder } from '../../components/boundField.ts';
import { DevicePhotos } from './DevicePhotos.tsx';
import type { DeviceEditState } from './useDeviceEditForm.ts';

const combobox = { zIndex: 1000 } as const;

function GeneralTab({ f }: { f: DeviceEditState }) {
  const { t, i18n } = useTranslation('deviceEdit');
  const { values, set, err } = f;
  const choice = choiceBinder({ t, values, set, err }, 'devform');
  const groupOptions = useResourceOptions('groups', { none: t('none'), staleTime: 60_000 });
  const drivers = useResourceList('drivers', undefined, { staleTime: 60_000 });
  const driverOptions = useMemo(
    () => (drivers.data ?? []).map((d) => ({ value: d.uniqueId, label: `${d.name} (${d.uniqueId})` })),
    [drivers.data],
  );
  const iconOptions = MAP_ICON_TYPES.map((k) => ({
    value: k,
    label: traccarName('categories', k, i18n.language),
  }));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextInput {...f.field('name')} withAsterisk />
      <TextInput {...f.field('uniqueId')} withAsterisk />
      <Select
        {...choice('groupId')}
        // no group is '0' (the "none" option), not ''
        value={values.groupId || '0'}
        onChange={(v) => set('groupId', v ?? '0')}
        data={groupOptions}
        comboboxProps={combobox}
      />
      <Select {...choice('category')} data={iconOptions} comboboxProps={combobox} clearable />
      <Select {...choice('icon')} data={iconOptions} comboboxProps={combobox} clearable />
      <Select
        {...choice('state')}
        comboboxProps={combobox}
        data={DEVICE_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
        clearable
      />
      {(['color', 'colorExtra'] as const).map((k) => (
        <ColorInput
          key={k}
          label={t(`fields.${k}`)}
          value={values[k]}
          onChange={(v) => set(k, v)}
          error={err(k)}
          data-testid={`devform-${k}-input`}
          popoverProps={combobox}
        />
      ))}
      <Select
        {...choice('driverUniqueId')}
        comboboxProps={combobox}
        data={driverOptions}
        clearable
        searchable
        data-testid="devform-driver"
      />
      <Switch
        mt="lg"
        label={t('fields.qrDriver')}
        checked={values.qrDriver}
        onChange={(e) => f.setQrDriver(e.currentTarget.checked)}
        data-testid="devform-qrDriver"
      />
    </SimpleGrid>
  );
}

function InstallationTab({ f }: { f: DeviceEditState }) {
  const { t } = useTranslation('deviceEdit');
  const { values, setInst, err } = f;
  const field = fieldBinder(
    { t, values: values.installation, set: setInst, err: (k) => err(`installation.${k}`) },
    'installation',
    'installation',
  );
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {INSTALLATION_FIELDS.filter((k) => k !== 'observation' && k !== 'address').map((k) => (
          <TextInput key={k} {...field(k)} type={k === 'date' ? 'date' : k === 'email' ? 'email' : 'text'} />
        ))}
      </SimpleGrid>
      {(['address', 'observation'] as const).map((k) => (
        <Textarea key={k} mt="sm" {...field(k)} />
      ))}
      <DevicePhotos deviceId={f.deviceId} device={f.device} canEdit={f.canSave} />
    </>
  );
}

export function DeviceEditTabs({ f }: { f: DeviceEditState }) {
  const { t } = useTranslation('deviceEdit');
  return (
    <Tabs defaultValue="general" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="general">{t('tabs.general')}</Tabs.Tab>
        <Tabs.Tab value="chip">{t('tabs.chip')}</Tabs.Tab>
        <Tabs.Tab value="vehicle">{t('tabs.vehicle')}</Tabs.Tab>
        <Tabs.Tab value="installation" data-testid="tab-installation">
          {t('tabs.installation')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="general" pt="sm">
        <GeneralTab f={f} />
      </Tabs.Panel>
      <Tabs.Panel value="chip" pt="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput {...f.field('iccid')} />
          <TextInput {...f.field('phone')} />
          <TextInput {...f.field('operator')} />
          <TextInput {...f.field('broker')} />
          <TextInput {...f.field('apn')} />
          <TextInput {...f.field('monthlyValue')} inputMode="decimal" />
          <TextInput {...f.field('simActivationDate')} type="date" />
          <TextInput {...f.field('simExpirationDate')} type="date" />
        </SimpleGrid>
      </Tabs.Panel>
      <Tabs.Panel value="vehicle" pt="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput {...f.field('plate')} />
          <TextInput {...f.field('renavam')} />
          <TextInput {...f.field('brand')} />
          <TextInput {...f.field('model')} />
          <TextInput {...f.field('technology')} />
          <TextInput {...f.field('protocol')} />
          <TextInput {...f.field('fuelTank')} inputMode="decimal" />
          <TextInput {...f.field('odometer')} inputMode="decimal" description={t('hints.odometer')} />
          <TextInput {...f.field('engineHours')} inputMode="decimal" description={t('hints.engineHours')} />
        </SimpleGrid>
      </Tabs.Panel>
      <Tabs.Panel value="installation" pt="sm">
        <InstallationTab f={f} />
      </Tabs.Panel>
    </Tabs>
  );
}
