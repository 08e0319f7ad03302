// The tab panels of the `server` dialog (general, map, units, permissions and limits, scores, integrations), drawn
// from TABS: each tab's rows of fields, which also say on which tab each field is; one field builder per kind
// (text, switch, choice, unit) bound to the values being edited and their errors.
import { Select, SimpleGrid, Stack, Switch, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import {
  ALTITUDE_UNITS,
  COORDINATE_FORMATS,
  DEFAULT_SCORE_WEIGHTS,
  DISTANCE_UNITS,
  localeUnits,
  SCORE_WEIGHT_FIELDS,
  SCORE_WEIGHT_KEYS,
  SCORE_WEIGHT_MAX,
  SMS_API_TYPES,
  SPEED_UNITS,
  SUPPORTED_LOCALES,
  UNIT_LABELS,
  VOLUME_UNITS,
  type ServerSettingsValues,
  type Units,
} from '@rastro/domain';
import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import {
  choiceBinder,
  fieldBinder,
  flagBinder,
  type FlagKey as BoundFlag,
  type TextKey as BoundKey,
} from '../../components/boundField.ts';

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

/** A row of a tab: switches (two columns, close together), or fields in 1 to 3 columns. */
type Row = ['flags' | 1 | 2 | 3, ...string[]];

const TABS: Record<string, Row[]> = {
  general: [
    [
      'flags',
      'registration',
      'readonly',
      'deviceReadonly',
      'limitCommands',
      'forceSettings',
      'twelveHourFormat',
    ],
    [2, 'lang', 'coordinateFormat', 'timezone'],
    [1, 'announcement'],
  ],
  map: [
    [1, 'map'],
    [3, 'latitude', 'longitude', 'zoom'],
    ['flags', 'showStops', 'showEvents'],
  ],
  units: [
    [2, 'speedUnit', 'distanceUnit', 'altitudeUnit', 'volumeUnit', 'currency', 'fuelPrice', 'litersx100km'],
  ],
  permissions: [
    ['flags', 'enableAdvancedPerms', 'enableBilling', 'qrDriverCheckin', 'lockUnlockButtons'],
    [2, 'deviceLimit', 'deviceAttributes', 'blockMaxSpeed'],
  ],
  scores: [[2, ...SCORE_WEIGHT_FIELDS]],
  integrations: [
    [2, 'googleKey', 'bingKey'],
    [1, 'smsUrl'],
    [3, 'smsKey', 'smsType', 'smsRefer'],
  ],
};

/** Which tab shows each field (an error switches to the tab of the first wrong field). */
export const TAB_FIELDS: Record<string, string[]> = Object.fromEntries(
  Object.entries(TABS).map(([tab, rows]) => [tab, rows.flatMap(([, ...keys]) => keys)]),
);

/** The text above a tab's fields: its key, size and test id. */
const HINTS: Record<string, [string, 'xs' | 'sm', string?]> = {
  units: ['unitsDefault', 'xs', 'server-units-default'],
  scores: ['hints.scores', 'sm'],
};

const UNIT_LISTS: Record<string, readonly string[]> = {
  speedUnit: SPEED_UNITS,
  distanceUnit: DISTANCE_UNITS,
  altitudeUnit: ALTITUDE_UNITS,
  volumeUnit: VOLUME_UNITS,
};
/** The choices named by a list and the prefix of their texts. */
const OPTIONS: Record<string, [readonly string[], string]> = {
  lang: [SUPPORTED_LOCALES, 'languages'],
  coordinateFormat: [COORDINATE_FORMATS, 'coordinateFormats'],
  smsType: [SMS_API_TYPES, 'smsTypes'],
};
// the text fields' own props: keyboard, example, hint below (`hints.<key>`), no autocompletion of keys
const DECIMAL = [
  'latitude',
  'longitude',
  'fuelPrice',
  'litersx100km',
  'blockMaxSpeed',
  ...SCORE_WEIGHT_FIELDS,
];
const NUMERIC = ['zoom', 'deviceLimit'];
const PLACEHOLDERS: Record<string, string> = {
  currency: 'BRL',
  blockMaxSpeed: '20',
  smsUrl: 'https://',
  ...Object.fromEntries(
    SCORE_WEIGHT_FIELDS.map((k, i) => [k, String(DEFAULT_SCORE_WEIGHTS[SCORE_WEIGHT_KEYS[i]])]),
  ),
};
const DESCRIBED = ['deviceLimit', 'deviceAttributes', 'blockMaxSpeed'];
const SECRETS = ['googleKey', 'bingKey', 'smsKey'];

type TextKey = BoundKey<ServerSettingsValues>;
type FlagKey = BoundFlag<ServerSettingsValues>;

export function SettingsPanels({
  values,
  setValues,
  errors,
  timezones,
}: {
  values: ServerSettingsValues;
  setValues: Dispatch<SetStateAction<ServerSettingsValues>>;
  errors: Record<string, string>;
  timezones: string[] | undefined;
}) {
  const { t, i18n } = useTranslation('serverSettings');
  const err = (key: string) => (errors[key] ? t(errors[key], { max: SCORE_WEIGHT_MAX }) : undefined);
  const set = (key: string, v: string | boolean) => setValues((p) => ({ ...p, [key]: v }));
  const text = fieldBinder({ t, values, set, err }, 'server');
  const select = choiceBinder({ t, values, set, err }, 'server');
  const flag = flagBinder({ t, values, set }, 'server');
  const choice = (
    key: TextKey,
    data: Array<{ value: string; label: string }>,
    searchable = false,
    placeholder = t('default'),
  ) => (
    <Select
      key={key}
      {...select(key)}
      data={data}
      clearable
      searchable={searchable}
      limit={searchable ? 200 : undefined}
      placeholder={placeholder}
    />
  );
  const unitOptions = (list: readonly string[]) =>
    list.map((u) => ({ value: u, label: t(`units.${u}`, { defaultValue: UNIT_LABELS[u as 'kn'] ?? u }) }));
  // with no choice each reader gets their language's unit (domain localeUnits); the placeholder names this one's
  const languageUnits = localeUnits(i18n.language);
  const unitChoice = (key: keyof Units, list: readonly string[]) =>
    choice(key, unitOptions(list), false, t('languageDefault', { unit: UNIT_LABELS[languageUnits[key]] }));
  const options = (k: string) => {
    if (k === 'timezone') return (timezones ?? []).map((z) => ({ value: z, label: z }));
    if (k === 'map') return MAP_STYLES.map(([value, key]) => ({ value, label: t(key, { ns: 'map' }) }));
    const [list, prefix] = OPTIONS[k] ?? [];
    return list?.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
  };
  const field = (k: string): ReactNode => {
    if (UNIT_LISTS[k]) return unitChoice(k as keyof Units, UNIT_LISTS[k]);
    const list = options(k);
    if (list) return choice(k as TextKey, list, k === 'timezone');
    if (k === 'announcement') return <Textarea key={k} {...text(k)} autosize minRows={2} maxRows={6} />;
    return (
      <TextInput
        key={k}
        {...text(k as TextKey)}
        description={DESCRIBED.includes(k) ? t(`hints.${k}`) : undefined}
        placeholder={PLACEHOLDERS[k]}
        maxLength={k === 'currency' ? 3 : undefined}
        inputMode={DECIMAL.includes(k) ? 'decimal' : NUMERIC.includes(k) ? 'numeric' : undefined}
        autoComplete={SECRETS.includes(k) ? 'off' : undefined}
      />
    );
  };
  return Object.entries(TABS).map(([tab, rows]) => {
    const hint = HINTS[tab];
    return (
      <Tabs.Panel key={tab} value={tab} pt="md">
        <Stack gap="sm">
          {hint && (
            <Text size={hint[1]} c="dimmed" data-testid={hint[2]}>
              {t(hint[0])}
            </Text>
          )}
          {rows.map(([cols, ...keys]) =>
            cols === 1 ? (
              keys.map(field)
            ) : (
              <SimpleGrid
                key={keys[0]}
                cols={{ base: 1, sm: cols === 'flags' ? 2 : cols }}
                spacing={cols === 'flags' ? 'xs' : undefined}
              >
                {keys.map((k) => (cols === 'flags' ? <Switch key={k} {...flag(k as FlagKey)} /> : field(k)))}
              </SimpleGrid>
            ),
          )}
        </Stack>
      </Tabs.Panel>
    );
  });
}
