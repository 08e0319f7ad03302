import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { matchRoute } from './app/routeMeta.ts';
import { preloadSignedIn } from './app/router.tsx';
import { startSignedInRequests } from './shell/sessionActions.ts';
import {
  FALLBACK_LOCALE,
  i18n,
  loadLanguage,
  loadShellTexts,
  SIGN_IN_NAMESPACES,
  type Locale,
} from './i18n/index.ts';

document.documentElement.lang = i18n.language;

// Before the first render only the sign-in pages' texts (a signed-in page shows nothing but the loading bar
// while the guard checks the session); a signed-in page starts the guard's requests, the shell's texts and code
// at once, in parallel (the guard takes the requests over, shell/sessionActions.ts; the shell's lazy import waits
// for its texts, app/router.tsx). The fallback language after the first render.
const access = matchRoute(location.pathname)?.meta.access;
const signInTexts = loadLanguage(i18n.language as Locale, SIGN_IN_NAMESPACES);
if (access === 'auth' || access === 'driver') void startSignedInRequests({ devices: access === 'auth' });
if (access !== 'public') void loadShellTexts().catch(() => undefined);
if (access === 'auth') preloadSignedIn();
void signInTexts.then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  void loadLanguage(FALLBACK_LOCALE, SIGN_IN_NAMESPACES);
});
