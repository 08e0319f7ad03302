// The live map made while a person types on the sign-in page (issue #31, session 27, decision 45). Timed from Enter,
// the first map of a small fleet waited mostly on MapLibre's own start once the shell had created the map: its
// worker's script fetched, compiled and run, the style loaded and the first programs linked, all after the session's
// answer. main.tsx calls startEarlyMap at the first key on /login (once the map's code the key asks for is in): the
// map is made on a hidden container at the shell's map size (drawing nothing), so its worker and style are ready
// before Enter; MapView then adopts it (adoptEarlyMap) instead of making its own. A map of another style than
// the signed-in user's, or none at all, and MapView makes one as before.
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';
import { initialView } from '@rastro/domain';
import { useSession } from '../../stores/session.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { mapStyles, resolveStyle } from './styles.ts';
import {
  addDeviceSource,
  geofenceLayers,
  labelLayerSpecs,
  SRC_DEVICES,
  SRC_GEOFENCE_LABELS,
  SRC_GEOFENCES,
} from './layers.ts';
import { removeSources } from '../../components/mapParts.ts';
import { prefetchIcons } from '../../api/mapIcons.ts';

// The worker is bundled by vite as its own file; MapLibre is told where it is.
maplibregl.setWorkerUrl(workerUrl);

/** The live map's options (MapView's map and the early one alike); the attribution is added by MapView. */
export function liveMapOptions(
  container: HTMLElement,
  style: maplibregl.StyleSpecification | string,
  center: [number, number],
  zoom: number,
  locale?: Record<string, string>,
): maplibregl.MapOptions {
  return {
    container,
    style,
    center,
    zoom,
    // added by MapView, in the user's language (an early map is made before the map's texts are in)
    attributionControl: false,
    // symbols and labels appear at once instead of fading in over 300 ms: each fade step is a frame, and in
    // software WebGL a frame with the map costs the GPU process 300–700 ms (bench/RESULTS.md, session 21)
    fadeDuration: 0,
    // labels are drawn from local fonts when the style has no glyphs (offline style)
    localIdeographFontFamily: 'sans-serif',
    // MapLibre's control texts and the map's aria-label in the user's language (issue #29)
    locale,
  };
}

interface EarlyMap {
  map: maplibregl.Map;
  container: HTMLDivElement;
  styleId: string;
}

let early: EarlyMap | null = null;

/**
 * The map's size in the signed-in shell (the header 52 px high; on a desktop the side rail 51 px wide), in CSS pixels
 * with the side rail's width (`left`): the hidden map is made there, so that MapView's resize on adoption keeps the
 * drawing buffer (a canvas of another size makes the GPU process allocate it again, about as long as making a
 * WebGL context on SwiftShader: 0.56 s measured in session 25).
 */
function mapCssSize(): { left: number; width: number; height: number } {
  const rail = window.innerWidth > 768 ? 51 : 0;
  return {
    left: rail,
    width: Math.max(1, window.innerWidth - rail),
    height: Math.max(1, window.innerHeight - 52),
  };
}

const WARM_SOURCE = 'rastro-warm-devices';
const WARM_FENCES = 'rastro-warm-geofences';
const WARM_FENCE_LABELS = 'rastro-warm-geofence-labels';
const WARM_SOURCES = [WARM_SOURCE, WARM_FENCES, WARM_FENCE_LABELS];
/** The live map's sources and the warm frame's stand-ins for them. */
const WARM_FOR: Record<string, string> = {
  [SRC_DEVICES]: WARM_SOURCE,
  [SRC_GEOFENCES]: WARM_FENCES,
  [SRC_GEOFENCE_LABELS]: WARM_FENCE_LABELS,
};

/** Removes the warm frame's layers and sources, if they are still there. */
const removeWarmLayers = (map: maplibregl.Map) => removeSources(map, ...WARM_SOURCES);

/** Adds `layer` under the warm frame's id prefix, on the stand-in of its source. */
function addWarmLayer(map: maplibregl.Map, layer: maplibregl.LayerSpecification): void {
  const source = 'source' in layer ? WARM_FOR[layer.source as string] : undefined;
  if (source)
    map.addLayer({ ...layer, id: `rastro-warm-${layer.id}`, source } as maplibregl.LayerSpecification);
}

/**
 * One hidden frame with the live map's layers before Enter: three stand-in markers (two in a cluster, one alone, one
 * with a precision circle and a label) drawn with the icons, a stand-in fence with its name, so that the programs
 * the first frames with the vehicles need are linked in the GPU process (MapLibre keeps them in its painter) and the
 * worker has cut a device source once. The fences (fill, line and the stencil clipping their tiles) and the texts
 * (a fence's name in its colour, the labels and cluster counts in one colour) were linked after Enter before session
 * 44, each wave of links a frame's wait on SwiftShader (bench/RESULTS.md). Then the stand-ins are removed and the
 * map draws nothing until MapView adopts it.
 */
async function warmFrame(map: maplibregl.Map, clustered: boolean, submitted: () => boolean): Promise<void> {
  const icons = await prefetchIcons();
  if (early?.map !== map || submitted()) return; // adopted or removed meanwhile, or too late
  for (const [name, image] of icons)
    if (!map.hasImage(name)) map.addImage(name, image, { sdf: true, pixelRatio: 2 });
  const icon = icons.keys().next().value ?? 'icon-default';
  const { width, height } = mapCssSize();
  const at = (x: number, y = 0) => map.unproject([width / 2 + x, height / 2 + y]).toArray();
  const marker = (id: number, x: number, label = '') => ({
    type: 'Feature' as const,
    id,
    geometry: { type: 'Point' as const, coordinates: at(x) },
    properties: {
      icon,
      color: '#1565c0',
      course: 0,
      accuracy: 50,
      mpp0: 156543,
      label,
      status: 'online',
    },
  });
  const features = [marker(1, -150), marker(2, -150), marker(3, 150, 'A')];
  const fence = { name: 'A', anchor: false, color: '#1976d2' };
  const ring = [at(-40, -40), at(40, -40), at(40, 40), at(-40, 40), at(-40, -40)];
  const collection = (...f: GeoJSON.Feature[]) => ({ type: 'FeatureCollection' as const, features: f });
  map.addSource(WARM_FENCES, {
    type: 'geojson',
    data: collection({
      type: 'Feature',
      properties: fence,
      geometry: { type: 'Polygon', coordinates: [ring] },
    }),
  });
  map.addSource(WARM_FENCE_LABELS, {
    type: 'geojson',
    data: collection({ type: 'Feature', properties: fence, geometry: { type: 'Point', coordinates: at(0) } }),
  });
  for (const layer of geofenceLayers()) addWarmLayer(map, layer);
  addDeviceSource(map, WARM_SOURCE, collection(...features), clustered, 'rastro-warm-');
  for (const layer of labelLayerSpecs(clustered)) addWarmLayer(map, layer);
  const painter = map.painter;
  const render = Object.getPrototypeOf(painter).render as typeof painter.render;
  painter.render = (...args) => {
    const late = submitted();
    if (!late && !WARM_SOURCES.every((id) => map.isSourceLoaded(id))) return;
    if (!late) render.apply(painter, args);
    painter.render = () => undefined;
    // after MapLibre's frame, not inside it
    setTimeout(() => {
      if (early?.map === map) removeWarmLayers(map);
    }, 0);
  };
  map.triggerRepaint();
}

/**
 * An early map nobody adopts (the signed-in page has no live map, as a QR driver's) is removed 10–15 s after the
 * page left /login, with its worker and WebGL context; on /login (a refused sign-in, a retry) it is kept.
 */
function dropWhenUnused(e: EarlyMap): void {
  let away = 0;
  const timer = setInterval(() => {
    if (early !== e) return clearInterval(timer);
    away = location.pathname === '/login' ? 0 : away + 1;
    if (away < 3) return;
    clearInterval(timer);
    early = null;
    e.map.remove();
    e.container.remove();
  }, 5_000);
}

/**
 * Makes the live map on a hidden container at the shell's map size, once (see the header). `submitted`: whether
 * the sign-in form was sent (its hidden warm frame is then left out: after Enter it would compete with what the
 * signed-in page does, the GPU process's time above all).
 */
export function startEarlyMap(submitted: () => boolean = () => false): void {
  if (early) return;
  try {
    const { server, ns } = useSession.getState();
    const style = resolveStyle(mapStyles(server, ns), usePrefs.getState().mapStyle);
    const { left, width, height } = mapCssSize();
    const container = document.createElement('div');
    container.setAttribute('aria-hidden', 'true');
    container.dataset.earlyMap = '';
    Object.assign(container.style, {
      position: 'fixed',
      left: `${left}px`,
      top: `${window.innerHeight - height}px`,
      width: `${width}px`,
      height: `${height}px`,
      visibility: 'hidden',
      pointerEvents: 'none',
      zIndex: '-1',
    });
    document.body.appendChild(container);
    const view = initialView(null, server, [], { width, height });
    const map = new maplibregl.Map(
      liveMapOptions(container, style.style, [view.center.longitude, view.center.latitude], view.zoom),
    );
    // hidden, it draws nothing: a frame costs the GPU process as much as a shown one (on SwiftShader hundreds of
    // ms), and made late it would compete with what follows Enter; its first frame is MapView's (firstFrameHold.ts)
    map.painter.render = () => undefined;
    early = { map, container, styleId: style.id };
    dropWhenUnused(early);
    map.once('style.load', () => {
      if (!submitted())
        void warmFrame(map, usePrefs.getState().mapPref.clustered, submitted).catch(() => undefined);
    });
  } catch {
    // no WebGL here, or no map: MapView makes its own and says so
  }
}

/**
 * The early map for MapView's container `el` if it was made with style `styleId`: its container moved into `el`
 * (shown, sized by `el`), its texts in the user's language. Otherwise null (an early map of another style is
 * removed). Once only.
 */
export function adoptEarlyMap(
  el: HTMLElement,
  styleId: string,
  locale: Record<string, string>,
): maplibregl.Map | null {
  const e = early;
  early = null;
  if (!e) return null;
  if (e.styleId !== styleId) {
    e.map.remove();
    e.container.remove();
    return null;
  }
  const { container, map } = e;
  removeWarmLayers(map);
  // the painter's own render (from its prototype) again
  Reflect.deleteProperty(map.painter, 'render');
  container.removeAttribute('aria-hidden');
  delete container.dataset.earlyMap;
  container.removeAttribute('style');
  Object.assign(container.style, { position: 'absolute', inset: '0' });
  el.appendChild(container);
  map._locale = { ...map._locale, ...locale };
  map.getCanvas().setAttribute('aria-label', map._getUIString('Map.Title'));
  map.resize();
  return map;
}
