// The sign-in screens' form checks (validation.ts, on the domain's zod schemas) as a chunk of their own: not part
// of the login page's first paint (issue #13, page weight), fetched right after it in the background, so a submit
// never waits on it — and never depends on the server still answering (a stopped server must still give the
// connection error, not a silent failure).
// The domain's message catalogue (the checks' wording) comes with them.
import { loadDomainMessages } from '../../i18n/index.ts';

type Checks = typeof import('./validation.ts');

let pending: Promise<Checks> | null = null;

export function loadChecks(): Promise<Checks> {
  pending ??= Promise.all([import('./validation.ts'), loadDomainMessages()]).then(
    ([m]) => m,
    (err: unknown) => {
      pending = null; // try again on the next submit
      throw err;
    },
  );
  return pending;
}

/** After the first paint: fetch the checks while the user types. */
export function preloadChecks(): void {
  const later =
    typeof window !== 'undefined' && 'requestIdleCallback' in window
      ? (fn: () => void) => window.requestIdleCallback(fn)
      : (fn: () => void) => setTimeout(fn, 100);
  later(() => void loadChecks().catch(() => undefined));
}
