// The form fields of the `server` dialog: one builder per kind (text, switch, choice, unit) bound to the values
// being edited and their errors.
import { Select, Switch } from '@mantine/core';
import {
  localeUnits,
  SCORE_WEIGHT_MAX,
  UNIT_LABELS,
  type ServerSettingsValues,
  type Units,
} from '@rastro/domain';
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldBinder, type TextKey as BoundKey } from '../../components/boundField.ts';

export type TextKey = BoundKey<ServerSettingsValues>;
export type FlagKey = {
  [K in keyof ServerSettingsValues]: ServerSettingsValues[K] extends boolean ? K : never;
}[keyof ServerSettingsValues];

/** The field builders of the `server` dialog over the values being edited. */
export function useSettingsFields(
  values: ServerSettingsValues,
  setValues: Dispatch<SetStateAction<ServerSettingsValues>>,
  errors: Record<string, string>,
) {
  const { t, i18n } = useTranslation('serverSettings');
  const err = (key: string) => (errors[key] ? t(errors[key], { max: SCORE_WEIGHT_MAX }) : undefined);
  const text = fieldBinder(
    { t, values, set: (key, v) => setValues((p) => ({ ...p, [key]: v })), err },
    'server',
  );
  const flag = (key: FlagKey) => (
    <Switch
      key={key}
      label={t(`fields.${key}`)}
      checked={values[key]}
      onChange={(e) => {
        const v = e.currentTarget.checked;
        setValues((p) => ({ ...p, [key]: v }));
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
      key={key}
      label={t(`fields.${key}`)}
      data={data}
      value={values[key] || null}
      onChange={(v) => setValues((p) => ({ ...p, [key]: v ?? '' }))}
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
  return { text, flag, choice, unitChoice };
}

export type SettingsFields = ReturnType<typeof useSettingsFields>;
