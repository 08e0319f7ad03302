// Whether the signed-in page's map has drawn its first frame with the user's vehicles (issue #31). Until then the
// shell holds the panel's page back: in headless Chromium on software WebGL every frame of the page goes through the
// GPU process (300–700 ms each with the map), and the map's WebGL context and first programs queue behind those
// frames, so a device list rendered and painted while the map starts made the first map 36 % React work and many
// frames later (bench/RESULTS.md, session 20). Once released it stays released: moving between pages is unchanged.
// The map releases it once its first frame with the markers is drawn (or it failed: features/map/feedController.ts
// watchFirstFrame); the timer below is only for a page whose map never started (no WebGL): under load a timer let
// the list's render (about 1.5 s of React) in before the markers (session 22).
import { useSyncExternalStore } from 'react';

/**
 * The page shows after this long (ms, from the first time it asks) when no map has started: a map that cannot
 * (no WebGL) never hides the page for good.
 */
export const FIRST_MAP_WAIT_MS = 3000;

let drawn = false;
let started = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Called by the map once it exists (its WebGL context made): from then on only the map releases the page. */
export function mapStarted(): void {
  started = true;
  clearTimeout(timer);
  timer = undefined;
}
const listeners = new Set<() => void>();

/** Called by the map once its first frame with the vehicles (or an empty fleet) is drawn. */
export function markFirstMapDrawn(): void {
  if (drawn) return;
  drawn = true;
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  for (const l of [...listeners]) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= drawn || started ? undefined : setTimeout(markFirstMapDrawn, FIRST_MAP_WAIT_MS);
  return () => listeners.delete(listener);
}

/** Whether the map's first frame is drawn (or failed, or FIRST_MAP_WAIT_MS passed with no map). */
export function useFirstMapDrawn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => drawn,
    () => drawn,
  );
}
