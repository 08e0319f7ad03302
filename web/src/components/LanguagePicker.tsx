// Language switch (pt-BR, es, en-US); the choice is kept in the URL-independent i18n state for the session. Wide
// enough for "Português (Brasil)" whole at the small size.
// A native select: keyboard and screen readers get the platform's own control, and the sign-in pages do not
// download a popover engine for three options.
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLocale, SUPPORTED_LOCALES, type Locale } from '../i18n/index.ts';

export function LanguagePicker({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation('common');
  return (
    <NativeSelect
      size={size}
      w={176}
      aria-label={t('language')}
      data-testid="language-picker"
      value={i18n.language}
      data={SUPPORTED_LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
      onChange={(e) => void setLocale(e.currentTarget.value as Locale)}
    />
  );
}
