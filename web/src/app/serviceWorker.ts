// Service worker at /service-worker.js (SPEC §7). When an update is found the user is asked once per session to
// accept the new version; accepting makes the waiting worker take over and reloads the page.
export const UPDATE_ASKED_KEY = 'swUpdateAsked';

export function registerServiceWorker(ask: (accept: () => void) => void): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  // Reload only after the user accepted an update (a first install claiming the page must not reload it).
  let accepted = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!accepted) return;
    accepted = false;
    window.location.reload();
  });
  const offer = (worker: ServiceWorker) => {
    try {
      if (sessionStorage.getItem(UPDATE_ASKED_KEY)) return;
      sessionStorage.setItem(UPDATE_ASKED_KEY, '1');
    } catch {
      /* storage unavailable: ask anyway */
    }
    ask(() => {
      accepted = true;
      worker.postMessage('SKIP_WAITING');
    });
  };
  navigator.serviceWorker
    .register('/service-worker.js')
    .then((reg) => {
      if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
      reg.addEventListener('updatefound', () => {
        const worker = reg.installing;
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed' && navigator.serviceWorker.controller) offer(worker);
        });
      });
    })
    .catch((err) => console.warn('service worker registration failed', err));
}
