// The route overlay's parts (routeOverlay.ts): its layers, a piece's line features coloured by speed, the arrow
// drawn along the line, the playback vehicle's DOM marker, and the warm frame that links the layers' programs
// before a route is asked for.
import type { ExpressionSpecification, LayerSpecification, Map as MapLibreMap } from 'maplibre-gl';
import { colourRuns, type RoutePoint } from '@rastro/domain';
import { removeSources } from './mapParts.ts';

/** The arrow image drawn along the line. */
export const IMG_ALONG = 'rastro-route-arrow';

type FC = GeoJSON.FeatureCollection;

/**
 * A hidden piece is shown at once (routeOverlay's reveal): MapLibre fades a changed paint value in over 300 ms by
 * default, each frame of it drawing the whole route again (in software WebGL a large part of a second each).
 */
const NO_FADE = { duration: 0, delay: 0 };

/** A piece's line, coloured by each feature's `color`. */
export const lineLayer = (id: string, source: string, opacity: number): LayerSpecification => ({
  id,
  type: 'line',
  source,
  layout: { 'line-cap': 'round', 'line-join': 'round' },
  paint: {
    'line-color': ['get', 'color'],
    'line-width': 5,
    'line-opacity': opacity,
    'line-opacity-transition': NO_FADE,
  },
});

/**
 * Pixels of line between two arrows: 90 from zoom 13 (streets), up to 200 at zoom 11 and below, where a long route
 * is a tangle of lines and its arrows cost in every frame (MapLibre places each one again: a 100,000-point route
 * fitted at zoom 10 held 6,300 arrows at 90 pixels, issue #31).
 */
const ARROW_SPACING: ExpressionSpecification = ['interpolate', ['linear'], ['zoom'], 11, 200, 13, 90];

/** A piece's direction arrows along its line. */
export const arrowsLayer = (id: string, source: string, opacity: number): LayerSpecification => ({
  id,
  type: 'symbol',
  source,
  layout: {
    'symbol-placement': 'line',
    'symbol-spacing': ARROW_SPACING,
    'icon-image': IMG_ALONG,
    'icon-allow-overlap': true,
    'icon-ignore-placement': true,
  },
  paint: { 'icon-opacity': opacity, 'icon-opacity-transition': NO_FADE },
});

/** The start / end / stop / event marks. */
export const marksLayer = (id: string, source: string, opacity = 1): LayerSpecification => ({
  id,
  type: 'circle',
  source,
  paint: {
    'circle-radius': ['match', ['get', 'kind'], 'start', 8, 'end', 8, 6],
    'circle-color': ['get', 'color'],
    'circle-stroke-color': '#ffffff',
    'circle-stroke-width': 2,
    'circle-opacity': opacity,
    'circle-stroke-opacity': opacity,
  },
});

const WARM = 'rastro-route-warm';
/**
 * The warm frame's opacity: not zero (MapLibre skips a layer of zero opacity, and its program is then not linked)
 * and below one step of an 8-bit colour, so nothing shows.
 */
const WARM_OPACITY = 0.001;

/**
 * One nearly transparent frame of the route's layers (line, arrows, marks) over a stand-in route in the middle of
 * the view, when a page that draws routes opens (issue #31): the programs those layers need are linked in the GPU
 * process then (MapLibre keeps them in its painter), not in the first frame of the route the person asks for,
 * where in software WebGL they held that frame back by 100–300 ms (getProgramParameter waiting for the link).
 * The stand-in is removed after the map's next idle (its frame drawn). Answers a function removing it now.
 * Throws when the style is not loaded (as addSource).
 */
export function warmRouteLayers(map: MapLibreMap): () => void {
  const ids = [`${WARM}-line`, `${WARM}-arrows`, `${WARM}-marks`];
  const { clientWidth: w, clientHeight: h } = map.getContainer();
  const at = (x: number) => map.unproject([w / 2 + x, h / 2]).toArray();
  const properties = { color: '#1a9850', kind: 'start' };
  map.addSource(WARM, {
    type: 'geojson',
    data: {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties, geometry: { type: 'LineString', coordinates: [at(-150), at(150)] } },
        { type: 'Feature', properties, geometry: { type: 'Point', coordinates: at(0) } },
      ],
    },
  });
  map.addLayer(lineLayer(ids[0], WARM, WARM_OPACITY));
  map.addLayer(arrowsLayer(ids[1], WARM, WARM_OPACITY));
  map.addLayer(marksLayer(ids[2], WARM, WARM_OPACITY));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const remove = () => {
    map.off('idle', later);
    clearTimeout(timer);
    removeSources(map, WARM);
  };
  // after MapLibre's frame, not inside it
  const later = () => (timer = setTimeout(remove, 0));
  map.once('idle', later);
  map.triggerRepaint();
  return remove;
}

export type SourceEvent = { type: string; sourceId?: string; sourceDataType?: string };
/**
 * Whether a source event tells of its tiles: MapLibre says a GeoJSON source is loaded as soon as its data is
 * indexed ('metadata'), before a tile is cut, so only a later event means the tiles in view are in.
 */
export const tilesIn = (e: SourceEvent) =>
  e.sourceDataType !== 'metadata' && e.sourceDataType !== 'content' && e.sourceDataType !== 'visibility';

/** [west, south, east, north] of the points (Infinity when there are none). */
export function routeBounds(
  points: ReadonlyArray<{ latitude: number; longitude: number }>,
): [number, number, number, number] {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const p of points) {
    if (p.longitude < w) w = p.longitude;
    if (p.longitude > e) e = p.longitude;
    if (p.latitude < s) s = p.latitude;
    if (p.latitude > n) n = p.latitude;
  }
  return [w, s, e, n];
}

/** The line features of points[start … end] coloured on the scale of `maxSpeed`. */
export function lineData(points: readonly RoutePoint[], start: number, end: number, maxSpeed: number): FC {
  const slice = points.slice(start, end + 1);
  const data: FC = {
    type: 'FeatureCollection',
    features: colourRuns(slice, maxSpeed).map((r) => ({
      type: 'Feature',
      properties: { color: r.color },
      geometry: { type: 'LineString', coordinates: r.coordinates },
    })),
  };
  if (slice.length === 1) {
    const p = slice[0];
    data.features.push({
      type: 'Feature',
      properties: { color: '#1a9850' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [p.longitude, p.latitude],
          [p.longitude, p.latitude],
        ],
      },
    });
  }
  return data;
}

/** The arrow drawn along the line: a white filled triangle as RGBA pixels, pointing right (along the line). */
export function arrowImage(size = 24) {
  const data = new Uint8Array(size * size * 4);
  const m = size * 0.15;
  // triangle tip at the right edge, base on the left
  const tri = [
    [size - m, size / 2],
    [m, m],
    [m, size - m],
  ];
  const sign = (p: number[], a: number[], b: number[]) =>
    (p[0] - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (p[1] - b[1]);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const p = [x + 0.5, y + 0.5];
      const d1 = sign(p, tri[0], tri[1]);
      const d2 = sign(p, tri[1], tri[2]);
      const d3 = sign(p, tri[2], tri[0]);
      const inside = !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
      if (!inside) continue;
      data.fill(255, (y * size + x) * 4, (y * size + x + 1) * 4);
    }
  return { width: size, height: size, data };
}

/** The playback vehicle: a white disc with a blue arrow pointing north (rotated by the course). */
export function vehicleElement(): HTMLElement {
  const el = document.createElement('div');
  el.dataset.testid = 'route-vehicle';
  el.style.cssText =
    'width:26px;height:26px;border-radius:50%;background:#fff;border:3px solid #1565c0;box-sizing:border-box;' +
    'display:flex;align-items:center;justify-content:center;box-shadow:0 1px 4px rgba(0,0,0,.4);pointer-events:none';
  el.innerHTML =
    '<svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><path d="M7 0 L13 13 L7 10 L1 13 Z" fill="#1565c0"/></svg>';
  return el;
}
