// The tabs of the device form (DeviceEditDialog.tsx): general (name, identifier, group, category, icon, state,
// colours, driver, QR-driver flag), chip, vehicle (with odometer and engine hours) and installation with photos. A tab
// holding a field with an error is marked, and a refused save opens the first such tab.
import { ColorInput, Select, SimpleGrid, Switch, Tabs, TextInput, Textarea } from '@mantine/core';
import { DEVICE_STATES, MAP_ICON_TYPES, traccarName } from '@rastro/domain';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceList } from '../../api/resources.ts';
import { useResourceOptions } from '../../components/useResourceOptions.ts';
import { INSTALLATION_FIELDS } from './deviceForm.ts';
import { choiceBinder, fieldBinder } from '../../components/boundField.ts';
import { DevicePhotos } from './DevicePhotos.tsx';
import { DateField } from '../../components/DateField.tsx';
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
        {INSTALLATION_FIELDS.filter((k) => k !== 'observation' && k !== 'address').map((k) =>
          k === 'date' ? (
            <DateField key={k} {...field(k)} onChange={(v) => setInst(k, v)} />
          ) : (
            <TextInput key={k} {...field(k)} type={k === 'email' ? 'email' : 'text'} />
          ),
        )}
      </SimpleGrid>
      {(['address', 'observation'] as const).map((k) => (
        <Textarea key={k} mt="sm" {...field(k)} />
      ))}
      <DevicePhotos deviceId={f.deviceId} device={f.device} canEdit={f.canSave} />
    </>
  );
}

/** The fields of each tab but the first (General holds the rest); installation's are `installation.<key>`. */
const TAB_FIELDS: Record<Exclude<Tab, 'general'>, readonly string[]> = {
  chip: [
    'iccid',
    'phone',
    'operator',
    'broker',
    'apn',
    'monthlyValue',
    'simActivationDate',
    'simExpirationDate',
  ],
  vehicle: [
    'plate',
    'renavam',
    'brand',
    'model',
    'technology',
    'protocol',
    'fuelTank',
    'odometer',
    'engineHours',
  ],
  installation: [],
};
const TABS = ['general', 'chip', 'vehicle', 'installation'] as const;
type Tab = (typeof TABS)[number];

/** The tab a field's error is shown on. */
function tabOf(path: string): Tab {
  if (path.startsWith('installation.')) return 'installation';
  if (TAB_FIELDS.chip.includes(path)) return 'chip';
  if (TAB_FIELDS.vehicle.includes(path)) return 'vehicle';
  return 'general';
}

export function DeviceEditTabs({ f }: { f: DeviceEditState }) {
  const { t } = useTranslation('deviceEdit');
  const [tab, setTab] = useState<Tab>('general');
  const withErrors = new Set(f.errorPaths.map(tabOf));
  const errorKey = f.errorPaths.join(',');
  // a save refused for a field on another tab opens that tab (nothing happened on screen before)
  useEffect(() => {
    const first = TABS.find((x) => withErrors.has(x));
    if (first && !withErrors.has(tab)) setTab(first);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the errors change
  }, [errorKey]);
  const tabProps = (value: Tab) => ({
    value,
    color: withErrors.has(value) ? 'red' : undefined,
    'data-error': withErrors.has(value) || undefined,
    rightSection: withErrors.has(value) ? (
      <IconAlertCircle size={14} aria-label={t('tabs.hasErrors')} />
    ) : undefined,
  });
  return (
    <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab {...tabProps('general')} data-testid="tab-general">
          {t('tabs.general')}
        </Tabs.Tab>
        <Tabs.Tab {...tabProps('chip')} data-testid="tab-chip">
          {t('tabs.chip')}
        </Tabs.Tab>
        <Tabs.Tab {...tabProps('vehicle')} data-testid="tab-vehicle">
          {t('tabs.vehicle')}
        </Tabs.Tab>
        <Tabs.Tab {...tabProps('installation')} data-testid="tab-installation">
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
          {/* dates typed dd/mm/aaaa in the app's language (a native date input follows the browser's) */}
          <DateField {...f.field('simActivationDate')} onChange={(v) => f.set('simActivationDate', v)} />
          <DateField {...f.field('simExpirationDate')} onChange={(v) => f.set('simExpirationDate', v)} />
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
