import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Hint } from '../components/floating.tsx';

/** Light / dark colour scheme switch (Mantine keeps the choice in localStorage). */
export function ColorSchemeToggle() {
  const { t } = useTranslation('shell');
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const label = scheme === 'dark' ? t('header.light') : t('header.dark');
  return (
    <Hint label={label}>
      <ActionIcon
        variant="subtle"
        aria-label={label}
        data-testid="color-scheme-toggle"
        onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
      >
        {scheme === 'dark' ? <IconSun size={20} /> : <IconMoon size={20} />}
      </ActionIcon>
    </Hint>
  );
}
