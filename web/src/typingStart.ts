// The moment a person starts typing on a sign-in page (a key pressed, text put in a field, or a press of the pointer,
// which is how a form the browser filled in is sent):
// what the page needs only after that (its form checks, the signed-in app's code) is fetched then, so the page's
// first visit downloads the page alone (issue #31: ≤ 175 kB of JavaScript until typing starts).
const EVENTS = ['keydown', 'input', 'pointerdown'] as const;

/** Calls `fn` once, at the first key, input or pointer press anywhere on the page; returns a function that cancels it. */
export function onTypingStart(fn: () => void): () => void {
  const fire = () => {
    cancel();
    // after the event: run inside it, a React update made here joins the typed character's and lost it
    setTimeout(fn, 0);
  };
  const cancel = () => {
    for (const e of EVENTS) document.removeEventListener(e, fire, true);
  };
  for (const e of EVENTS) document.addEventListener(e, fire, true);
  return cancel;
}

let awaited = false;

/** main.tsx, on a public page (sign-in, registration, recovery, shares): what waits for typing waits from now on. */
export function awaitTyping(): void {
  awaited = true;
  onTypingStart(() => (awaited = false));
}

/** Whether this page still waits for the person to start typing (false on a signed-in page, and in tests). */
export const typingAwaited = (): boolean => awaited;
