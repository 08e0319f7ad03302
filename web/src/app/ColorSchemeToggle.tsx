import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HintIcon } from '../components/floating.tsx';

/** Light / dark colour scheme switch (Mantine keeps the choice in localStorage). */
export function ColorSchemeToggle() {
  const { t } = useTranslation('shell');
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const label = scheme === 'dark' ? t('header.light') : t('header.dark');
  return (
    <HintIcon
      label={label}
      data-testid="color-scheme-toggle"
      onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
    >
      {scheme === 'dark' ? <IconSun size={20} /> : <IconMoon size={20} />}
    </HintIcon>
  );
}
