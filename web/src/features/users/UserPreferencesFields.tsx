// The preferences tab of the user form: language, map style, map centre and zoom (SPEC §4 map centring reads
// them), coordinate format, 12-hour clock. Values are the form's strings; the domain's parseUserForm checks them.
// An unset choice reads "Padrão do servidor" (the server's setting applies), never an empty box.
import { Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { COORDINATE_FORMATS, SUPPORTED_LOCALES } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { UserForm } from './useUserEditForm.ts';

/** Map styles a user may prefer (the ids the live map knows). */
export const USER_MAP_STYLES = ['osm', 'light', 'dark', 'vector'] as const;

export function UserPreferencesFields({ f: { field, choice, check } }: { f: UserForm }) {
  const { t } = useTranslation('users');
  return (
    <Stack gap="xs">
      <Select
        {...choice('language')}
        clearable
        placeholder={t('languageDefault')}
        data={SUPPORTED_LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
      />
      <Select
        {...choice('map')}
        clearable
        placeholder={t('languageDefault')}
        data={USER_MAP_STYLES.map((m) => ({ value: m, label: t(`maps.${m}`) }))}
      />
      <SimpleGrid cols={3}>
        <TextInput {...field('latitude')} />
        <TextInput {...field('longitude')} />
        <TextInput {...field('zoom')} />
      </SimpleGrid>
      <Select
        {...choice('coordinateFormat')}
        clearable
        placeholder={t('languageDefault')}
        data={COORDINATE_FORMATS.map((f) => ({ value: f, label: t(`coordinateFormats.${f}`) }))}
        data-testid="user-coordinate-format"
      />
      <Switch {...check('twelveHourFormat')} data-testid="user-twelve-hour" />
    </Stack>
  );
}
