// Whether the signed-in page's map has drawn its first frame with the user's vehicles (issue #31). Until then the
// shell holds the panel's page back: in headless Chromium on software WebGL every frame of the page goes through the
// GPU process (300–700 ms each with the map), and the map's WebGL context and first programs queue behind those
// frames, so a device list rendered and painted while the map starts made the first map 36 % React work and many
// frames later (bench/RESULTS.md, session 20). Once released it stays released: moving between pages is unchanged.
import { useSyncExternalStore } from 'react';

/**
 * The page shows after this long (ms, from the first time it asks) even if the map has not drawn: a map that
 * fails (no WebGL) or is slow to start never hides the page for good.
 */
export const FIRST_MAP_WAIT_MS = 3000;

let drawn = false;
let timer: ReturnType<typeof setTimeout> | undefined;
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
  timer ??= drawn ? undefined : setTimeout(markFirstMapDrawn, FIRST_MAP_WAIT_MS);
  return () => listeners.delete(listener);
}

/** Whether the map's first frame is drawn (or FIRST_MAP_WAIT_MS passed since a part first asked). */
export function useFirstMapDrawn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => drawn,
    () => drawn,
  );
}
