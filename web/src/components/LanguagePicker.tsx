// Language switch (pt-BR, es, en-US); the choice is kept in the URL-independent i18n state for the session.
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLocale, SUPPORTED_LOCALES, type Locale } from '../i18n/index.ts';

export function LanguagePicker({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation('common');
  return (
    <Select
      size={size}
      w={140}
      aria-label={t('language')}
      data-testid="language-picker"
      allowDeselect={false}
      value={i18n.language}
      data={SUPPORTED_LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
      onChange={(v) => v && void setLocale(v as Locale)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
