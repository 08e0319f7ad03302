// What the layers drawn on the live map share (the live map's own, the route overlay and its warm frame, the drawing
// layer, the fences' list). No domain code: the drawing layer is in the live map's first load, the route's colouring rules are not.
import type { Map as MapLibreMap } from 'maplibre-gl';

/** Removes the sources still on the map and every layer drawn from them (a map being removed throws: ignored). */
export function removeSources(map: MapLibreMap, ...sources: string[]): void {
  try {
    for (const id of map.getLayersOrder())
      if (sources.includes(map.getLayer(id)?.source ?? '')) map.removeLayer(id);
    for (const id of sources) if (map.getSource(id)) map.removeSource(id);
  } catch {
    // the map is being removed
  }
}

/** A fit's padding that keeps a route or a fence beside the side panel (420 px) covering a wide map's left. */
export function panelPadding(map: MapLibreMap) {
  const left = map.getContainer().clientWidth > 900 ? 480 : 40;
  return { top: 60, bottom: 60, right: 60, left };
}
