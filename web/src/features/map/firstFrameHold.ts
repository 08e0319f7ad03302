// The map's first frame holds the vehicles (issue #31, session 23). MapLibre draws as soon as its style is loaded:
// a first frame of the background alone, then frames as our sources and the worker's tiles come. Each frame that
// needs WebGL programs not linked yet waits for the GPU process (in headless Chromium on software WebGL, SwiftShader,
// 0.2–0.8 s for the first link of a wave), and the first load paid three such waves before its markers showed
// (bench/RESULTS.md, session 22). Here the map skips drawing (MapLibre's painter) until the device source's tiles
// are in, so the first frame drawn links every program it needs at once and already shows the markers. MapLibre's
// own loop (styles, sources, tiles, placement) runs as before meanwhile; only the drawing waits.
import type { Map as MapLibreMap } from 'maplibre-gl';

/** The map draws after this long (ms from its creation) even if the vehicles' tiles are not in. */
export const FIRST_FRAME_HOLD_MS = 5000;

/**
 * Keeps `map` from drawing until `ready()` is true at one of its frames (or FIRST_FRAME_HOLD_MS passed); then calls
 * `drawn` right after that first frame is drawn, inside MapLibre's frame (what it changes on the map is seen by that
 * frame's end: the map is not idle in between). Returns the undo (the map draws again, `drawn` is not called).
 */
export function holdFirstFrame(map: MapLibreMap, ready: () => boolean, drawn: () => void): () => void {
  const painter = map.painter;
  const render = painter.render;
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    map.triggerRepaint();
  }, FIRST_FRAME_HOLD_MS);
  // the painter's own render (from its prototype) again
  const release = () => void delete (painter as Partial<typeof painter>).render;
  painter.render = (...args) => {
    if (!late && !ready()) return;
    clearTimeout(timer);
    release();
    render.apply(painter, args);
    drawn();
  };
  return () => {
    clearTimeout(timer);
    release();
  };
}
