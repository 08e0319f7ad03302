// The `server` dialog (SPEC §3 "Server settings", administrators only): tabs general, map, units, permissions and
// limits, integrations, over GET /api/server; saving PUTs the whole Server (Traccar replaces it) and reloads the
// session's server info, so units, map and limits change across the app at once.
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ALTITUDE_UNITS,
  DEFAULT_SCORE_WEIGHTS,
  SCORE_WEIGHT_FIELDS,
  SCORE_WEIGHT_KEYS,
  SCORE_WEIGHT_MAX,
  COORDINATE_FORMATS,
  DISTANCE_UNITS,
  localeUnits,
  SMS_API_TYPES,
  SPEED_UNITS,
  SUPPORTED_LOCALES,
  UNIT_LABELS,
  VOLUME_UNITS,
  type Units,
  serverToSettings,
  settingsToServer,
  type Server,
  type ServerSettingsValues,
} from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { api } from '../../api/http.ts';
import { fetchServer } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';

const MAP_STYLES: Array<[string, string]> = [
  ['osm', 'styleOsm'],
  ['light', 'styleLight'],
  ['dark', 'styleDark'],
  ['vector', 'styleVector'],
  ['google-road', 'styleGoogleRoad'],
  ['google-satellite', 'styleGoogleSatellite'],
  ['bing-aerial', 'styleBingAerial'],
  ['offline', 'styleOffline'],
];

type TextKey = {
  [K in keyof ServerSettingsValues]: ServerSettingsValues[K] extends string ? K : never;
}[keyof ServerSettingsValues];
type FlagKey = {
  [K in keyof ServerSettingsValues]: ServerSettingsValues[K] extends boolean ? K : never;
}[keyof ServerSettingsValues];

export function ServerSettingsDialog({ onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('serverSettings');
  const ns = useSession((s) => s.ns);
  const admin = useSession((s) => !!s.user?.administrator);
  const [server, setServer] = useState<Server | null>(null);
  const [values, setValues] = useState<ServerSettingsValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState(false);
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState<string | null>('general');
  const timezones = useQuery({
    queryKey: ['server', 'timezones'],
    queryFn: () => api.get<string[]>('/server/timezones'),
    staleTime: Infinity,
    enabled: admin,
  });

  useEffect(() => {
    let live = true;
    fetchServer()
      .then((s) => {
        if (!live) return;
        setServer(s);
        setValues(serverToSettings(s, ns));
      })
      .catch((err: unknown) => {
        console.warn('server settings not loaded', err);
        if (live) setLoadError(true);
      });
    return () => {
      live = false;
    };
  }, [ns]);

  const err = (key: string) => (errors[key] ? t(errors[key], { max: SCORE_WEIGHT_MAX }) : undefined);
  const text = (key: TextKey, extra: Record<string, unknown> = {}) => ({
    label: t(`fields.${key}`),
    value: values?.[key] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => {
      const v = e.currentTarget.value;
      setValues((p) => (p ? { ...p, [key]: v } : p));
    },
    error: err(key),
    'data-testid': `server-${key}`,
    ...extra,
  });
  const flag = (key: FlagKey) => (
    <Switch
      key={key}
      label={t(`fields.${key}`)}
      checked={!!values?.[key]}
      onChange={(e) => {
        const v = e.currentTarget.checked;
        setValues((p) => (p ? { ...p, [key]: v } : p));
      }}
      data-testid={`server-${key}`}
    />
  );
  const choice = (
    key: TextKey,
    data: Array<{ value: string; label: string }>,
    searchable = false,
    placeholder = t('default'),
  ) => (
    <Select
      label={t(`fields.${key}`)}
      data={data}
      value={values?.[key] || null}
      onChange={(v) => setValues((p) => (p ? { ...p, [key]: v ?? '' } : p))}
      clearable
      searchable={searchable}
      limit={searchable ? 200 : undefined}
      placeholder={placeholder}
      error={err(key)}
      data-testid={`server-${key}`}
    />
  );
  const unitOptions = (list: readonly string[]) =>
    list.map((u) => ({ value: u, label: t(`units.${u}`, { defaultValue: UNIT_LABELS[u as 'kn'] ?? u }) }));
  // with no choice each reader gets their language's unit (domain localeUnits); the placeholder names this one's
  const languageUnits = localeUnits(i18n.language);
  const unitChoice = (key: keyof Units, list: readonly string[]) =>
    choice(key, unitOptions(list), false, t('languageDefault', { unit: UNIT_LABELS[languageUnits[key]] }));

  const submit = async () => {
    if (!server || !values) return;
    const r = settingsToServer(server, values, ns);
    if (!r.ok) {
      setErrors(r.errors);
      const first = Object.keys(r.errors)[0];
      const owner = Object.entries(TAB_FIELDS).find(([, keys]) => keys.includes(first))?.[0];
      if (owner) setTab(owner);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await api.put<Server>('/server', r.server);
      await fetchServer();
      notifications.show({ color: 'green', message: t('saved') });
      onClose();
    } catch (e) {
      console.warn('server settings not saved', e);
      notifications.show({ color: 'red', message: t('saveError') });
    } finally {
      setSaving(false);
    }
  };

  let body: ReactNode;
  if (!admin) body = <Alert color="red">{t('adminOnly')}</Alert>;
  else if (loadError) body = <Alert color="red">{t('loadError')}</Alert>;
  else if (!values)
    body = (
      <Group justify="center" p="lg">
        <Loader size="sm" />
      </Group>
    );
  else
    body = (
      <Stack>
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            {Object.keys(TAB_FIELDS).map((k) => (
              <Tabs.Tab
                key={k}
                value={k}
                c={TAB_FIELDS[k].some((f) => errors[f]) ? 'red' : undefined}
                data-testid={`server-tab-${k}`}
              >
                {t(`tabs.${k}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>

          <Tabs.Panel value="general" pt="md">
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {flag('registration')}
                {flag('readonly')}
                {flag('deviceReadonly')}
                {flag('limitCommands')}
                {flag('forceSettings')}
                {flag('twelveHourFormat')}
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {choice(
                  'lang',
                  SUPPORTED_LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) })),
                )}
                {choice(
                  'coordinateFormat',
                  COORDINATE_FORMATS.map((f) => ({ value: f, label: t(`coordinateFormats.${f}`) })),
                )}
                {choice(
                  'timezone',
                  (timezones.data ?? []).map((z) => ({ value: z, label: z })),
                  true,
                )}
              </SimpleGrid>
              <Textarea {...text('announcement')} autosize minRows={2} maxRows={6} />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="map" pt="md">
            <Stack gap="sm">
              {choice(
                'map',
                MAP_STYLES.map(([value, key]) => ({ value, label: t(key, { ns: 'map' }) })),
              )}
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput {...text('latitude')} inputMode="decimal" />
                <TextInput {...text('longitude')} inputMode="decimal" />
                <TextInput {...text('zoom')} inputMode="numeric" />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {flag('showStops')}
                {flag('showEvents')}
              </SimpleGrid>
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="units" pt="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Text size="xs" c="dimmed" style={{ gridColumn: '1 / -1' }} data-testid="server-units-default">
                {t('unitsDefault')}
              </Text>
              {unitChoice('speedUnit', SPEED_UNITS)}
              {unitChoice('distanceUnit', DISTANCE_UNITS)}
              {unitChoice('altitudeUnit', ALTITUDE_UNITS)}
              {unitChoice('volumeUnit', VOLUME_UNITS)}
              <TextInput {...text('currency', { placeholder: 'BRL', maxLength: 3 })} />
              <TextInput {...text('fuelPrice')} inputMode="decimal" />
              <TextInput {...text('litersx100km')} inputMode="decimal" />
            </SimpleGrid>
          </Tabs.Panel>

          <Tabs.Panel value="permissions" pt="md">
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {flag('enableAdvancedPerms')}
                {flag('enableBilling')}
                {flag('qrDriverCheckin')}
                {flag('lockUnlockButtons')}
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  {...text('deviceLimit', { description: t('hints.deviceLimit') })}
                  inputMode="numeric"
                />
                <TextInput {...text('deviceAttributes', { description: t('hints.deviceAttributes') })} />
                <TextInput
                  {...text('blockMaxSpeed', { description: t('hints.blockMaxSpeed'), placeholder: '20' })}
                  inputMode="decimal"
                />
              </SimpleGrid>
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="scores" pt="md">
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                {t('hints.scores')}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {SCORE_WEIGHT_FIELDS.map((k, i) => (
                  <TextInput
                    key={k}
                    {...text(k, { placeholder: String(DEFAULT_SCORE_WEIGHTS[SCORE_WEIGHT_KEYS[i]]) })}
                    inputMode="decimal"
                  />
                ))}
              </SimpleGrid>
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="integrations" pt="md">
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput {...text('googleKey')} autoComplete="off" />
                <TextInput {...text('bingKey')} autoComplete="off" />
              </SimpleGrid>
              <TextInput {...text('smsUrl', { placeholder: 'https://' })} />
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput {...text('smsKey')} autoComplete="off" />
                {choice(
                  'smsType',
                  SMS_API_TYPES.map((s) => ({ value: s, label: t(`smsTypes.${s}`) })),
                )}
                <TextInput {...text('smsRefer')} />
              </SimpleGrid>
            </Stack>
          </Tabs.Panel>
        </Tabs>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={saving} data-testid="server-save">
            {t('save')}
          </Button>
        </Group>
      </Stack>
    );

  return (
    <Modal opened onClose={onClose} size="xl" title={t('title')} data-testid="server-dialog">
      {body}
    </Modal>
  );
}

/** Which tab shows each field (an error switches to the tab of the first wrong field). */
const TAB_FIELDS: Record<string, string[]> = {
  general: [
    'registration',
    'readonly',
    'deviceReadonly',
    'limitCommands',
    'forceSettings',
    'twelveHourFormat',
    'lang',
    'coordinateFormat',
    'timezone',
    'announcement',
  ],
  map: ['map', 'latitude', 'longitude', 'zoom', 'showStops', 'showEvents'],
  units: ['speedUnit', 'distanceUnit', 'altitudeUnit', 'volumeUnit', 'currency', 'fuelPrice', 'litersx100km'],
  permissions: [
    'enableAdvancedPerms',
    'enableBilling',
    'qrDriverCheckin',
    'lockUnlockButtons',
    'deviceLimit',
    'deviceAttributes',
    'blockMaxSpeed',
  ],
  scores: [...SCORE_WEIGHT_FIELDS],
  integrations: ['googleKey', 'bingKey', 'smsUrl', 'smsKey', 'smsType', 'smsRefer'],
};
