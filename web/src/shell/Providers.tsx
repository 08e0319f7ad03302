// App-wide providers: Mantine (light/dark; brand colours of the theme editor via BrandMantineProvider),
// TanStack Query, i18n, and the lazily loaded notifications and modals (LazyOverlays.tsx).
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n as defaultI18n } from '../i18n/index.ts';
import { queryClient as defaultQueryClient } from './queryClient.ts';
import { BrandMantineProvider } from '../branding/index.ts';
import { localizedTheme, theme, type MantineTexts } from './theme.ts';
import { LazyOverlays } from './LazyOverlays.tsx';

export function Providers({
  children,
  client = defaultQueryClient,
  i18n = defaultI18n,
}: {
  children: ReactNode;
  client?: QueryClient;
  i18n?: I18n;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <LocalizedMantine>
          <LazyOverlays />
          {children}
        </LocalizedMantine>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

/** Mantine with its built-in texts (the password toggle's, close and other icon buttons' labels) in the current language. */
function LocalizedMantine({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const texts: MantineTexts = {
    passwordVisibility: t('passwordVisibility'),
    close: t('close'),
    clear: t('clear'),
    remove: t('remove'),
    eyeDropper: t('eyeDropper'),
    pages: {
      first: t('pages.first'),
      previous: t('pages.previous'),
      next: t('pages.next'),
      last: t('pages.last'),
    },
  };
  // a new theme only when a text changes (the language, or its texts once loaded)
  const key = JSON.stringify(texts);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is `texts`
  const localized = useMemo(() => localizedTheme(theme, texts), [key]);
  return (
    <BrandMantineProvider theme={localized} defaultColorScheme="auto">
      {children}
    </BrandMantineProvider>
  );
}
