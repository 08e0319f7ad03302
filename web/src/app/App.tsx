import { modals } from '@mantine/modals';
import { useEffect } from 'react';
import { i18n } from '../i18n/index.ts';
import { Providers } from '../shell/Providers.tsx';
import { AppRoutes } from './router.tsx';
import { registerServiceWorker } from './serviceWorker.ts';

export function App() {
  useEffect(() => {
    if (!import.meta.env.PROD) return;
    registerServiceWorker((accept) =>
      modals.openConfirmModal({
        title: i18n.t('shell:update.title'),
        children: i18n.t('shell:update.message'),
        labels: { confirm: i18n.t('shell:update.accept'), cancel: i18n.t('shell:update.later') },
        onConfirm: accept,
      }),
    );
  }, []);
  return (
    <Providers>
      <AppRoutes />
    </Providers>
  );
}
