// Hands MapLibre the worker boot.ts started with the page's first requests (issue #31, session 24). MapLibre makes
// its workers itself (`new Worker(url, { type: 'module' })` in its worker pool) and has no option to take one, so
// the global constructor answers the early worker for that one call: `prewarm()` creates the shared pool at once,
// synchronously up to the constructor. The pool then lives for the page (as prewarm intends), not only as long as a
// map: the shell keeps one map for the whole signed-in session anyway.
import { takeMapWorker } from '../../boot.ts';

/**
 * Starts MapLibre's worker pool on the early worker, when there is one: `prewarm` calls MapLibre's (a function, not
 * MapLibre's namespace: a namespace passed as a value keeps every export of the engine in its chunk, 27 kB more).
 * Call after `setWorkerUrl`.
 */
export function adoptEarlyWorker(prewarm: () => void): boolean {
  const early = takeMapWorker();
  if (!early) return false;
  const Native = globalThis.Worker;
  let taken = false;
  globalThis.Worker = function EarlyWorker(...args: ConstructorParameters<typeof Worker>) {
    if (taken) return new Native(...args);
    taken = true;
    return early;
  } as unknown as typeof Worker;
  try {
    prewarm();
  } finally {
    globalThis.Worker = Native;
  }
  if (!taken) early.terminate();
  return taken;
}
