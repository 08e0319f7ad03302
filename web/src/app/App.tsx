import { modals } from '@mantine/modals';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { i18n } from '../i18n/index.ts';
import { Providers } from '../shell/Providers.tsx';
import { createRouter } from './router.tsx';
import { registerServiceWorker } from './serviceWorker.ts';

export function App() {
  const [router] = useState(createRouter);
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
      <RouterProvider router={router} />
    </Providers>
  );
}
