import { access } from './boot.ts';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { preloadSignedIn } from './app/router.tsx';
import {
  FALLBACK_LOCALE,
  i18n,
  loadLanguage,
  loadShellTexts,
  SIGN_IN_NAMESPACES,
  type Locale,
} from './i18n/index.ts';
import { awaitTyping, onTypingStart } from './typingStart.ts';

document.documentElement.lang = i18n.language;

// Before the first render only the sign-in pages' texts (a signed-in page shows nothing but the loading bar
// while the guard checks the session, whose requests boot.ts started), asked for before anything else here; a
// signed-in page then starts the map's, the shell's (code and texts) and the page's code at once, in parallel
// (the shell's lazy import waits for its texts, app/router.tsx). The fallback language after the first render.
const signInTexts = loadLanguage(i18n.language as Locale, SIGN_IN_NAMESPACES);
if (access === 'auth') preloadSignedIn(location.pathname);
else if (access === 'driver') void loadShellTexts().catch(() => undefined);
// A public page downloads itself alone until the person starts typing (issue #31): then the sign-in page starts the
// map's, the shell's and the home page's code, so that they are there, or on their way, when the sign-in succeeds.
if (access === 'public') awaitTyping();
// The map itself is made meanwhile too, once its code is in, on a hidden container (features/map/earlyMap.ts: its
// WebGL context, worker, style and programs), not on the path after Enter.
if (location.pathname === '/login') {
  let submitted = false;
  document.addEventListener('submit', () => (submitted = true), { capture: true, once: true });
  onTypingStart(() => {
    preloadSignedIn('/home');
    // made even when its code comes after the form was sent (measured: still ahead of the signed-in page's own);
    // only its warm frame is left out then
    void import('./features/map/earlyMap.ts')
      .then((m) => m.startEarlyMap(() => submitted))
      .catch(() => undefined);
  });
}
void signInTexts.then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  void loadLanguage(FALLBACK_LOCALE, SIGN_IN_NAMESPACES);
});
