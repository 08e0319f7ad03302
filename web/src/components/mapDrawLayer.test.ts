// The MapLibre binding of the drawing store, against a fake map (MapLibre needs WebGL, which jsdom lacks):
// clicks, the circle's radius press, handle drags, taps versus pans, double-click, Escape, hint, clean-up.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useLive } from '../stores/live.ts';
import { startMapDraw, stopMapDraw, useMapDraw } from './mapDraw.ts';
import { attachMapDraw, drawGeoJson } from './mapDrawLayer.ts';

type Handler = (e: FakeEvent) => void;
interface FakeEvent {
  type: string;
  point: { x: number; y: number };
  lngLat: { lng: number; lat: number };
  points: Array<{ x: number; y: number }>;
  originalEvent: { button: number };
  defaultPrevented: boolean;
  preventDefault(): void;
}

/** 1 pixel = 0.0001° on both axes, y grows southwards. */
function fakeMap() {
  const handlers = new Map<string, Set<Handler>>();
  const sources = new Map<string, unknown>();
  const layers = new Set<string>();
  const layerSources = new Map<string, string>();
  const container = document.createElement('div');
  const canvas = { style: { cursor: '' } };
  const state = { dblZoom: true, dragPan: true };
  const map = {
    on: (type: string, fn: Handler) =>
      void (handlers.get(type) ?? handlers.set(type, new Set()).get(type)!).add(fn),
    off: (type: string, fn: Handler) => void handlers.get(type)?.delete(fn),
    project: ([lng, lat]: [number, number]) => ({ x: lng / 1e-4, y: -lat / 1e-4 }),
    getCanvas: () => canvas,
    getContainer: () => container,
    doubleClickZoom: { enable: () => (state.dblZoom = true), disable: () => (state.dblZoom = false) },
    dragPan: { enable: () => (state.dragPan = true), disable: () => (state.dragPan = false) },
    getSource: (id: string) =>
      sources.has(id) ? { setData: (d: unknown) => sources.set(id, d) } : undefined,
    addSource: (id: string, spec: { data: unknown }) => sources.set(id, spec.data),
    removeSource: (id: string) => sources.delete(id),
    getLayer: (id: string) => (layers.has(id) ? { id, source: layerSources.get(id) } : undefined),
    getLayersOrder: () => [...layers],
    addLayer: (spec: { id: string; source: string }) =>
      layerSources.set(spec.id, spec.source) && layers.add(spec.id),
    removeLayer: (id: string) => layers.delete(id),
    setPaintProperty: () => undefined,
  };
  const fire = (type: string, x: number, y: number, extra: Partial<FakeEvent> = {}) => {
    const ev: FakeEvent = {
      type,
      point: { x, y },
      lngLat: { lng: x * 1e-4, lat: -y * 1e-4 },
      points: [{ x, y }],
      originalEvent: { button: 0 },
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
      ...extra,
    };
    for (const fn of [...(handlers.get(type) ?? [])]) fn(ev);
    return ev;
  };
  const click = (x: number, y: number) => {
    fire('mousedown', x, y);
    fire('mouseup', x, y);
    fire('click', x, y);
  };
  return {
    map: map as unknown as MapLibreMap,
    fire,
    click,
    state,
    sources,
    layers,
    container,
    canvas,
    handlers,
  };
}

const draw = () => useMapDraw.getState().draw!;
/** Lat/lon of a pixel of the fake map. */
const at = (x: number, y: number) => ({ latitude: -y * 1e-4, longitude: x * 1e-4 });

let fake: ReturnType<typeof fakeMap>;
let detach: () => void;
beforeEach(() => {
  stopMapDraw();
  useLive.getState().setRouteMode(false);
  fake = fakeMap();
  detach = attachMapDraw(fake.map);
});
afterEach(() => {
  detach();
  stopMapDraw();
});

describe('MapDrawLayer', () => {
  it('circle: click the centre, press-drag-release sets the radius; MapLibre’s own click after it is ignored', () => {
    startMapDraw({ shape: 'circle', hint: 'Clique no centro' });
    expect(fake.state.dblZoom).toBe(false);
    expect(useLive.getState().routeMode).toBe(true);
    expect(fake.container.querySelector('[data-testid=map-draw-hint]')?.textContent).toBe('Clique no centro');
    fake.click(100, 100);
    expect(draw().edit.step).toBe(2);
    expect(draw().center).toEqual(at(100, 100));
    const down = fake.fire('mousedown', 150, 100);
    expect(down.defaultPrevented).toBe(true); // no pan while setting the radius
    expect(fake.state.dragPan).toBe(false);
    fake.fire('mousemove', 170, 100);
    fake.fire('mousemove', 200, 100);
    fake.fire('mouseup', 200, 100);
    fake.fire('click', 200, 100);
    expect(draw().edit.step).toBe(3);
    expect(draw().center).toEqual(at(100, 100));
    expect(draw().radius).toBeCloseTo(
      (100 * 1e-4 * Math.PI * 6378137 * Math.cos((0.01 * Math.PI) / 180)) / 180,
      0,
    );
    expect(fake.state.dragPan).toBe(true);
    expect(drawGeoJson(draw()).shape.features[0].geometry.type).toBe('Polygon');
  });

  it('polygon: clicks add vertices, a vertex is dragged, double-click finishes', () => {
    startMapDraw({ shape: 'polygon' });
    fake.click(0, 0);
    fake.click(100, 0);
    fake.click(100, 100);
    // the second click of a double-click lands on the last vertex: no new vertex
    fake.click(101, 101);
    expect(draw().points).toHaveLength(3);
    const dbl = fake.fire('dblclick', 101, 101);
    expect(dbl.defaultPrevented).toBe(true);
    expect(draw().edit.step).toBe(3);
    // drag vertex 1 from (100, 0) to (150, -20)
    expect(fake.fire('mousedown', 102, 2).defaultPrevented).toBe(true);
    fake.fire('mousemove', 130, -10);
    fake.fire('mousemove', 150, -20);
    fake.fire('mouseup', 150, -20);
    fake.fire('click', 150, -20);
    expect(draw().points).toEqual([at(0, 0), at(150, -20), at(100, 100)]);
    expect(fake.sources.size).toBe(2);
    stopMapDraw();
    expect(fake.sources.size).toBe(0);
    expect(fake.layers.size).toBe(0);
    expect(fake.state.dblZoom).toBe(true);
    expect(useLive.getState().routeMode).toBe(false);
    expect(fake.container.querySelector('[data-testid=map-draw-hint]')).toBeNull();
  });

  it('touch: a tap adds a point, a drag pans and adds nothing, a pinch is left to the map', () => {
    startMapDraw({ shape: 'line' });
    fake.fire('touchstart', 10, 10);
    fake.fire('touchend', 10, 10);
    fake.fire('click', 10, 10); // the browser's click after the tap
    expect(draw().points).toEqual([at(10, 10)]);
    const pan = fake.fire('touchstart', 300, 300);
    expect(pan.defaultPrevented).toBe(false);
    fake.fire('touchmove', 340, 300);
    fake.fire('touchend', 340, 300);
    expect(draw().points).toHaveLength(1);
    fake.fire('touchstart', 200, 200, {
      points: [
        { x: 150, y: 200 },
        { x: 250, y: 200 },
      ],
    });
    fake.fire('touchend', 200, 200);
    expect(draw().points).toHaveLength(1);
  });

  it('Escape calls the drawing’s onEscape; the cursor shows what a pointer can do', () => {
    const onEscape = vi.fn();
    startMapDraw({ shape: 'polygon', onEscape });
    fake.click(0, 0);
    fake.fire('mousemove', 2, 2);
    expect(fake.canvas.style.cursor).toBe('move');
    fake.fire('mousemove', 80, 80);
    expect(fake.canvas.style.cursor).toBe('crosshair');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(onEscape).toHaveBeenCalledTimes(1);
    stopMapDraw();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(onEscape).toHaveBeenCalledTimes(1);
    expect(fake.handlers.get('click')?.size ?? 0).toBe(0);
  });
});
