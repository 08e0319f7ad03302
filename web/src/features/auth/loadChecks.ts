// The sign-in screens' form checks (validation.ts, on the domain's zod schemas) as a chunk of their own: not part
// of the sign-in page's first visit (issues #13 and #31, page weight), fetched once the person starts typing, so a
// submit rarely waits on it — and never depends on the server still answering (a stopped server must still give
// the connection error, not a silent failure).
// The domain's message catalogue (the checks' wording) comes with them.
import { loadDomainMessages } from '../../i18n/index.ts';
import { onTypingStart } from '../../typingStart.ts';

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

/** For a page's effect: fetch the checks once the person starts typing (a submit fetches them in any case). */
export function preloadChecks(): () => void {
  return onTypingStart(() => void loadChecks().catch(() => undefined));
}
