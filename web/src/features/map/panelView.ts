// The part of the map the routed page's panel leaves visible (issue #29): on a phone the detail sheet covers the
// lower half, on a desktop the side panel the left edge. Centring a vehicle puts it in the middle of what is left
// (MapLibre's `offset`, which unlike `padding` is not kept by the map afterwards: later fits stay as they were).
import { overlayPadding } from '@rastro/domain';
import type { Map as MapLibreMap } from 'maplibre-gl';

const panelRect = () => document.querySelector('[data-testid="panel"]')?.getBoundingClientRect();

/** The offset from the map's centre of the middle of its visible part, in pixels. */
export function visibleOffset(map: MapLibreMap): [number, number] {
  const p = overlayPadding(map.getContainer().getBoundingClientRect(), panelRect());
  return [(p.left - p.right) / 2, (p.top - p.bottom) / 2];
}

/** Whether the point (longitude, latitude) is drawn under the panel. */
export function underPanel(map: MapLibreMap, lngLat: [number, number]): boolean {
  const panel = panelRect();
  if (!panel) return false;
  const box = map.getContainer().getBoundingClientRect();
  const p = map.project(lngLat);
  const x = box.left + p.x;
  const y = box.top + p.y;
  return x >= panel.left && x <= panel.right && y >= panel.top && y <= panel.bottom;
}
