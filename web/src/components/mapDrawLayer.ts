// MapLibre binding of the map drawing store (mapDraw.ts): its own sources and layers (rastro-draw-*, re-added
// after a base-style switch) and the pointer handling. While a drawing is active: clicks / taps add vertices or set
// the circle's centre and radius, a press on a handle drags it (the map does not pan), at circle step 2 a press
// and drag sets the radius, double-click finishes a polygon or line (no double-click zoom meanwhile), Escape calls
// the drawing's onEscape, and the live map's camera stays where the user put it (route mode).
import type {
  GeoJSONSource,
  LayerSpecification,
  Map as MapLibreMap,
  MapEventType,
  MapMouseEvent,
  MapTouchEvent,
} from 'maplibre-gl';
import {
  drawHandles,
  drawPreview,
  handleAfterDrag,
  type DrawHandle,
  type DrawState,
  type LatLon,
} from '@rastro/domain';
import { useLive } from '../stores/live.ts';
import { areaGeometry, lonLat } from './areaGeometry.ts';
import { dispatchMapDraw, useMapDraw } from './mapDraw.ts';
import { removeSources } from './mapParts.ts';

const SRC_SHAPE = 'rastro-draw';
const SRC_HANDLES = 'rastro-draw-handles';
/** A press within this many pixels of a handle grabs it (touch gets a larger target). */
const HIT_PX_MOUSE = 12;
const HIT_PX_TOUCH = 22;
/** A press that moves less than this is a click. */
const CLICK_TOLERANCE_PX = 4;
/** MapLibre's own click after a press we handled is ignored for this long (ms). */
const SUPPRESS_CLICK_MS = 500;

type FC = GeoJSON.FeatureCollection;
const empty = (): FC => ({ type: 'FeatureCollection', features: [] });
const toLatLon = (l: { lng: number; lat: number }): LatLon => ({ latitude: l.lat, longitude: l.lng });

/** The drawing's layers, bottom to top, in its colour: the shape's fill and line, its handles. */
const drawLayers = (color: string): LayerSpecification[] => [
  {
    id: 'rastro-draw-fill',
    type: 'fill',
    source: SRC_SHAPE,
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'fill-color': color, 'fill-opacity': 0.2 },
  },
  {
    id: 'rastro-draw-line',
    type: 'line',
    source: SRC_SHAPE,
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': color, 'line-width': 3, 'line-dasharray': [2, 1] },
  },
  {
    id: 'rastro-draw-handles',
    type: 'circle',
    source: SRC_HANDLES,
    paint: {
      'circle-radius': ['match', ['get', 'kind'], 'midpoint', 4, 7],
      'circle-color': ['match', ['get', 'kind'], 'midpoint', '#ffffff', color],
      'circle-opacity': ['match', ['get', 'kind'], 'midpoint', 0.85, 1],
      'circle-stroke-color': ['match', ['get', 'kind'], 'midpoint', color, '#ffffff'],
      'circle-stroke-width': 2,
    },
  },
];

/** GeoJSON of the drawing: the shape (with the pointer preview) and its handles. */
export function drawGeoJson(draw: DrawState | null): { shape: FC; handles: FC } {
  if (!draw) return { shape: empty(), handles: empty() };
  const shape = empty();
  const area = drawPreview(draw);
  if (area) shape.features.push({ type: 'Feature', properties: {}, geometry: areaGeometry(area) });
  const handles: FC = {
    type: 'FeatureCollection',
    features: drawHandles(draw).map(({ handle, at }) => ({
      type: 'Feature',
      properties: { kind: handle.kind },
      geometry: { type: 'Point', coordinates: lonLat(at) },
    })),
  };
  return { shape, handles };
}

interface Press {
  /** 'handle' drags a handle, 'radius' sets a circle's radius, 'tap' may be a tap (or the start of a pan). */
  kind: 'handle' | 'radius' | 'tap';
  handle: DrawHandle | null;
  start: { x: number; y: number };
  at: LatLon;
  moved: boolean;
  touch: boolean;
}

declare global {
  interface Window {
    /** Test hook: the drawing in progress. */
    __rastroDraw?: { state(): DrawState | null };
  }
}

export class MapDrawLayer {
  private active = false;
  private press: Press | null = null;
  private suppressClickUntil = 0;
  private routeModeBefore = false;
  private hintEl: HTMLElement | null = null;
  private readonly unsub: () => void;
  private readonly onStyle = () => {
    if (this.active) this.render();
  };

  constructor(readonly map: MapLibreMap) {
    map.on('style.load', this.onStyle);
    this.unsub = useMapDraw.subscribe((s, prev) => {
      if (s.draw !== prev.draw || s.color !== prev.color || s.hint !== prev.hint) this.sync();
    });
    window.__rastroDraw = { state: () => useMapDraw.getState().draw };
    this.sync();
  }

  private sync(): void {
    const { draw } = useMapDraw.getState();
    if (draw && !this.active) this.activate();
    else if (!draw && this.active) this.deactivate();
    if (this.active) this.render();
    this.showHint(this.active ? useMapDraw.getState().hint : null);
  }

  /** The drawing's instruction, over the top of the map (it lets pointer events through). */
  private showHint(text: string | null): void {
    if (!text) {
      this.hintEl?.remove();
      this.hintEl = null;
      return;
    }
    if (!this.hintEl) {
      const el = document.createElement('div');
      el.dataset.testid = 'map-draw-hint';
      el.setAttribute('role', 'status');
      el.style.cssText =
        'position:absolute;top:12px;left:50%;transform:translateX(-50%);z-index:5;max-width:min(90%,520px);' +
        'padding:8px 12px;border-radius:6px;background:rgba(33,37,41,.85);color:#fff;font:13px/1.4 sans-serif;' +
        'text-align:center;pointer-events:none';
      this.map.getContainer().appendChild(el);
      this.hintEl = el;
    }
    if (this.hintEl.textContent !== text) this.hintEl.textContent = text;
  }

  private activate(): void {
    this.active = true;
    const map = this.map;
    map.doubleClickZoom.disable();
    map.getCanvas().style.cursor = 'crosshair';
    for (const [type, listener] of this.pointer) map.on(type, listener as never);
    window.addEventListener('keydown', this.key);
    const live = useLive.getState();
    this.routeModeBefore = live.routeMode;
    live.setRouteMode(true);
  }

  private deactivate(): void {
    this.active = false;
    this.press = null;
    const map = this.map;
    for (const [type, listener] of this.pointer) map.off(type, listener as never);
    window.removeEventListener('keydown', this.key);
    map.doubleClickZoom.enable();
    map.getCanvas().style.cursor = '';
    map.dragPan.enable();
    useLive.getState().setRouteMode(this.routeModeBefore);
    removeSources(map, SRC_SHAPE, SRC_HANDLES);
  }

  /** Adds the sources and layers when missing, then sets their data. */
  private render(): void {
    const map = this.map;
    const { draw, color } = useMapDraw.getState();
    const data = drawGeoJson(draw);
    try {
      if (!map.getSource(SRC_SHAPE)) map.addSource(SRC_SHAPE, { type: 'geojson', data: data.shape });
      if (!map.getSource(SRC_HANDLES)) map.addSource(SRC_HANDLES, { type: 'geojson', data: data.handles });
      for (const layer of drawLayers(color)) if (!map.getLayer(layer.id)) map.addLayer(layer);
      map.setPaintProperty('rastro-draw-fill', 'fill-color', color);
      map.setPaintProperty('rastro-draw-line', 'line-color', color);
      map.getSource<GeoJSONSource>(SRC_SHAPE)?.setData(data.shape);
      map.getSource<GeoJSONSource>(SRC_HANDLES)?.setData(data.handles);
    } catch {
      // the style is mid-switch; style.load renders again
    }
  }

  /** The handle nearest to a screen point, within the hit radius (vertices win over midpoints). */
  private hitTest(point: { x: number; y: number }, touch: boolean): DrawHandle | null {
    const draw = useMapDraw.getState().draw;
    if (!draw) return null;
    const { x, y } = point;
    const limit = touch ? HIT_PX_TOUCH : HIT_PX_MOUSE;
    let best: DrawHandle | null = null;
    let bestScore = Infinity;
    for (const { handle, at } of drawHandles(draw)) {
      const p = this.map.project(lonLat(at));
      const d = Math.hypot(p.x - x, p.y - y);
      if (d > limit) continue;
      const score = d + (handle.kind === 'midpoint' ? limit : 0);
      if (score < bestScore) {
        bestScore = score;
        best = handle;
      }
    }
    return best;
  }

  private readonly down = (e: MapMouseEvent | MapTouchEvent) => {
    const draw = useMapDraw.getState().draw;
    if (!draw) return;
    const touch = e.type === 'touchstart';
    if (touch && (e as MapTouchEvent).points.length > 1) {
      this.press = null; // pinch: the map zooms
      return;
    }
    if (!touch && (e as MapMouseEvent).originalEvent.button !== 0) return;
    const handle = this.hitTest(e.point, touch);
    const radiusPress = draw.shape === 'circle' && draw.edit.step === 2;
    const start = { x: e.point.x, y: e.point.y };
    const at = toLatLon(e.lngLat);
    if (!handle && !radiusPress) {
      // touch: a tap is handled here (the browser's click after a tap is not always delivered); a drag pans
      if (touch) this.press = { kind: 'tap', handle: null, start, at, moved: false, touch };
      return;
    }
    e.preventDefault();
    this.map.dragPan.disable();
    this.press = { kind: handle ? 'handle' : 'radius', handle, start, at, moved: false, touch };
  };

  private readonly move = (e: MapMouseEvent | MapTouchEvent) => {
    const at = toLatLon(e.lngLat);
    const press = this.press;
    if (!press) {
      if (e.type !== 'mousemove') return;
      // over a handle: it can be dragged; elsewhere the crosshair (also over device markers)
      this.map.getCanvas().style.cursor = this.hitTest(e.point, false) ? 'move' : 'crosshair';
      dispatchMapDraw({ type: 'hover', at });
      return;
    }
    press.at = at;
    if (!press.moved && Math.hypot(e.point.x - press.start.x, e.point.y - press.start.y) > CLICK_TOLERANCE_PX)
      press.moved = true;
    if (!press.moved || press.kind === 'tap') return;
    if (press.handle) {
      dispatchMapDraw({ type: 'drag', handle: press.handle, at });
      press.handle = handleAfterDrag(press.handle);
    } else dispatchMapDraw({ type: 'hover', at }); // circle step 2: the radius follows the drag
  };

  private readonly up = (e: MapMouseEvent | MapTouchEvent) => {
    const press = this.press;
    if (!press) return;
    this.press = null;
    if (press.kind !== 'tap') this.map.dragPan.enable();
    this.suppressClickUntil = performance.now() + SUPPRESS_CLICK_MS;
    const at = e.type === 'mouseup' ? toLatLon(e.lngLat) : press.at;
    if (press.kind === 'tap') {
      if (!press.moved) dispatchMapDraw({ type: 'click', at, hit: this.hitTest(press.start, true) });
    } else if (press.kind === 'radius')
      dispatchMapDraw({ type: 'click', at }); // clicked or dragged
    else if (!press.moved) dispatchMapDraw({ type: 'click', at, hit: press.handle });
  };

  private readonly click = (e: MapMouseEvent) => {
    if (performance.now() < this.suppressClickUntil) return;
    dispatchMapDraw({ type: 'click', at: toLatLon(e.lngLat), hit: this.hitTest(e.point, false) });
  };

  private readonly dblclick = (e: MapMouseEvent) => {
    e.preventDefault();
    dispatchMapDraw({ type: 'finish' });
  };

  private readonly key = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    const { onEscape } = useMapDraw.getState();
    if (onEscape) {
      e.preventDefault();
      onEscape();
    }
  };

  /** The pointer listeners bound while drawing (each takes the events of its type: cast for MapLibre's typing). */
  private readonly pointer: Array<[keyof MapEventType, (e: MapMouseEvent & MapTouchEvent) => void]> = [
    ['mousedown', this.down],
    ['touchstart', this.down],
    ['mousemove', this.move],
    ['touchmove', this.move],
    ['mouseup', this.up],
    ['touchend', this.up],
    ['click', this.click],
    ['dblclick', this.dblclick],
  ];

  destroy(): void {
    if (this.active) this.deactivate();
    this.showHint(null);
    this.unsub();
    this.map.off('style.load', this.onStyle);
    if (window.__rastroDraw) delete window.__rastroDraw;
  }
}

/** Binds the drawing store to a map; returns the unbind function (the map feature calls this once). */
export function attachMapDraw(map: MapLibreMap): () => void {
  const layer = new MapDrawLayer(map);
  return () => layer.destroy();
}
