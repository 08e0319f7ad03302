// The tab panels of the `server` dialog: general, map, units, permissions and limits, scores, integrations.
import { SimpleGrid, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import {
  ALTITUDE_UNITS,
  COORDINATE_FORMATS,
  DEFAULT_SCORE_WEIGHTS,
  DISTANCE_UNITS,
  SCORE_WEIGHT_FIELDS,
  SCORE_WEIGHT_KEYS,
  SMS_API_TYPES,
  SPEED_UNITS,
  SUPPORTED_LOCALES,
  VOLUME_UNITS,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { SettingsFields } from './settingsFields.tsx';

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

export function SettingsPanels({
  fields: { text, flag, choice, unitChoice },
  timezones,
}: {
  fields: SettingsFields;
  timezones: string[] | undefined;
}) {
  const { t } = useTranslation('serverSettings');
  return (
    <>
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
              (timezones ?? []).map((z) => ({ value: z, label: z })),
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
    </>
  );
}
