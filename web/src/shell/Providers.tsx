// App-wide providers: Mantine (light/dark; brand colours of the theme editor via BrandMantineProvider),
// TanStack Query, i18n, and the lazily loaded notifications and modals (Overlays.tsx).
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { lazy, Suspense, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n as defaultI18n } from '../i18n/index.ts';
import { queryClient as defaultQueryClient } from './queryClient.ts';
import { BrandMantineProvider } from '../branding/index.ts';
import { theme } from './theme.ts';

const Overlays = lazy(() => import('./Overlays.tsx').then((m) => ({ default: m.Overlays })));

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
        <BrandMantineProvider theme={theme} defaultColorScheme="auto">
          <Suspense fallback={null}>
            <Overlays />
          </Suspense>
          {children}
        </BrandMantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
