import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { matchRoute } from './app/routeMeta.ts';
import { FALLBACK_LOCALE, i18n, loadLanguage, SIGN_IN_NAMESPACES, type Locale } from './i18n/index.ts';

document.documentElement.lang = i18n.language;

// The active language's texts before the first render (a sign-in page: only its own namespaces; the signed-in
// shell loads the rest, app/router.tsx); the fallback language after it, off the critical path.
const signIn = matchRoute(location.pathname)?.meta.access === 'public' ? SIGN_IN_NAMESPACES : undefined;
void loadLanguage(i18n.language as Locale, signIn).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  void loadLanguage(FALLBACK_LOCALE, signIn);
});
