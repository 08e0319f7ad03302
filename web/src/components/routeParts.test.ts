// The route's warm frame (issue #31): the route's three layers drawn once over a stand-in route, nearly transparent
// (a zero opacity would be skipped and its program not linked), then removed after the map's next idle; a
// RouteOverlay warms a map once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { RouteOverlay } from './routeOverlay.ts';
import { arrowsLayer, warmRouteLayers } from './routeParts.ts';

interface Layer {
  id: string;
  type: string;
  source: string;
  paint?: Record<string, unknown>;
}

function fakeMap() {
  const sources = new Map<string, { data: GeoJSON.FeatureCollection }>();
  const layers = new Map<string, Layer>();
  const once = new Map<string, Array<() => void>>();
  const container = document.createElement('div');
  Object.defineProperty(container, 'clientWidth', { value: 800 });
  Object.defineProperty(container, 'clientHeight', { value: 600 });
  const map = {
    repaints: 0,
    getContainer: () => container,
    unproject: ([x, y]: [number, number]) => ({ toArray: () => [x / 100, y / 100] }),
    addSource: (id: string, spec: { data: GeoJSON.FeatureCollection }) => sources.set(id, spec),
    getSource: (id: string) => sources.get(id),
    removeSource: (id: string) => sources.delete(id),
    addLayer: (spec: Layer) => layers.set(spec.id, spec),
    getLayer: (id: string) => layers.get(id),
    getLayersOrder: () => [...layers.keys()],
    removeLayer: (id: string) => layers.delete(id),
    hasImage: () => true,
    addImage: () => undefined,
    on: () => undefined,
    off: (type: string, fn: () => void) =>
      once.set(
        type,
        (once.get(type) ?? []).filter((f) => f !== fn),
      ),
    once: (type: string, fn: () => void) => once.set(type, [...(once.get(type) ?? []), fn]),
    fire: (type: string) => {
      const fns = once.get(type) ?? [];
      once.delete(type);
      fns.forEach((fn) => fn());
    },
    triggerRepaint: () => map.repaints++,
  };
  return { map, sources, layers, asMap: map as unknown as MapLibreMap };
}

const warmLayers = (layers: Map<string, Layer>) =>
  [...layers.values()].filter((l) => l.source === 'rastro-route-warm');

describe('warmRouteLayers', () => {
  afterEach(() => vi.useRealTimers());

  it("draws the route's line, arrows and marks once, nearly transparent, then removes them after the next idle", () => {
    vi.useFakeTimers();
    const fake = fakeMap();
    warmRouteLayers(fake.asMap);
    const layers = warmLayers(fake.layers);
    expect(layers.map((l) => l.type)).toEqual(['line', 'symbol', 'circle']);
    for (const l of layers)
      for (const [name, value] of Object.entries(l.paint ?? {}))
        if (name.endsWith('opacity')) {
          expect(value).toBeGreaterThan(0);
          expect(value).toBeLessThan(1 / 255);
        }
    const data = fake.sources.get('rastro-route-warm')!.data;
    expect(data.features.map((f) => f.geometry.type)).toEqual(['LineString', 'Point']);
    expect(fake.map.repaints).toBe(1);
    fake.map.fire('idle');
    expect(warmLayers(fake.layers)).toHaveLength(3); // not inside MapLibre's frame
    vi.runAllTimers();
    expect(warmLayers(fake.layers)).toHaveLength(0);
    expect(fake.sources.has('rastro-route-warm')).toBe(false);
  });

  it('the same layers as the route draws (so the same programs), and a RouteOverlay warms a map once', () => {
    const fake = fakeMap();
    const overlay = new RouteOverlay(fake.asMap);
    overlay.warm();
    const route = [...fake.layers.values()].filter((l) => l.source !== 'rastro-route-warm');
    const warm = warmLayers(fake.layers);
    for (const type of ['line', 'symbol', 'circle']) {
      const a = route.find((l) => l.type === type)!;
      const b = warm.find((l) => l.type === type)!;
      expect(Object.keys(b.paint ?? {}).sort()).toEqual(Object.keys(a.paint ?? {}).sort());
      expect({ ...b, id: '', source: '', paint: {} }).toEqual({ ...a, id: '', source: '', paint: {} });
    }
    // a hidden piece is shown at once, not faded in over MapLibre's default 300 ms (a frame of the route each)
    for (const type of ['line', 'symbol']) {
      const paint = route.find((l) => l.type === type)!.paint ?? {};
      const fades = Object.entries(paint).filter(([name]) => name.endsWith('opacity-transition'));
      expect(fades).toEqual([[expect.any(String), { duration: 0, delay: 0 }]]);
    }
    overlay.destroy();
    expect(warmLayers(fake.layers)).toHaveLength(0);
    new RouteOverlay(fake.asMap).warm();
    expect(warmLayers(fake.layers)).toHaveLength(0);
  });
});

describe('arrowsLayer', () => {
  it('spaces the arrows 90 pixels apart on streets (zoom 13 and closer), up to 200 on a far view of a long route', () => {
    const layer = arrowsLayer('a', 's', 1);
    const spacing = layer.type === 'symbol' ? layer.layout?.['symbol-spacing'] : undefined;
    // MapLibre's linear interpolation on the zoom, clamped at the first and last stops
    if (!Array.isArray(spacing) || spacing[0] !== 'interpolate') throw new Error('not a zoom interpolation');
    expect(spacing.slice(1, 3)).toEqual([['linear'], ['zoom']]);
    const stops = spacing.slice(3) as number[];
    const at = (z: number) => {
      if (z <= stops[0]) return stops[1];
      for (let i = 2; i < stops.length; i += 2)
        if (z <= stops[i])
          return (
            stops[i - 1] + ((z - stops[i - 2]) / (stops[i] - stops[i - 2])) * (stops[i + 1] - stops[i - 1])
          );
      return stops[stops.length - 1];
    };
    expect([13, 15, 18, 22].map(at)).toEqual([90, 90, 90, 90]);
    expect(at(12)).toBeGreaterThan(90);
    expect([4, 10, 11].map(at)).toEqual([200, 200, 200]);
  });
});
