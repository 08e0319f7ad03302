// A long route drawn page by page (issue #31) on a real RouteOverlay over a fake map (MapLibre needs WebGL, which
// jsdom lacks): each page is drawn once on the colour scale fixed before the route arrives, a later (faster) page
// does not recolour the pieces drawn, and the camera is fitted once, to the first page.
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { parseRoute, speedColor, type RoutePoint } from '@rastro/domain';
import { defaultPeriod } from '../../components/PeriodPicker.tsx';
import { RouteOverlay } from '../../components/routeOverlay.ts';
import { redrawDue, useRouteLoad } from './useRouteLoad.ts';

const pages: RoutePoint[][] = [];
const told: {
  extent: [number, number, number, number] | null;
  /** called after each page is handed over, with its number */
  after?: (k: number) => void;
} = { extent: null };

vi.mock('./routePages.ts', () => ({
  loadRoutePages: async (
    _id: number,
    _from: string,
    _to: string,
    o: { onPage(points: RoutePoint[], done: boolean, extent: typeof told.extent): void },
  ) => {
    let all: RoutePoint[] = [];
    for (let k = 0; k < pages.length; k++) {
      all = [...all, ...pages[k]];
      o.onPage(all, k === pages.length - 1, k === 0 ? told.extent : null);
      told.after?.(k);
    }
    return { ok: true, points: all };
  },
}));
vi.mock('./historyExtras.ts', () => ({
  loadHistoryExtras: async () => ({ marks: [], chapters: [], eventTimes: [] }),
}));

type FC = GeoJSON.FeatureCollection;

function fakeMap() {
  const sources = new Map<string, FC>();
  const setData = new Map<string, number>();
  const layers = new Set<string>();
  const fits: unknown[] = [];
  const paint = new Map<string, unknown>();
  const handlers = new Map<string, Set<(e: unknown) => void>>();
  const loaded = new Set<string>();
  const buffers = new Map<string, number | undefined>();
  const container = document.createElement('div');
  const map = {
    on: (type: string, fn: (e: unknown) => void) =>
      handlers.set(type, (handlers.get(type) ?? new Set()).add(fn)),
    off: (type: string, fn: (e: unknown) => void) => handlers.get(type)?.delete(fn),
    fire: (type: string, e: object) => [...(handlers.get(type) ?? [])].forEach((fn) => fn({ type, ...e })),
    setPaintProperty: (layer: string, name: string, value: unknown) => paint.set(`${layer} ${name}`, value),
    isSourceLoaded: (id: string) => loaded.has(id),
    hasImage: () => true,
    addImage: () => undefined,
    getContainer: () => container,
    getSource: (id: string) =>
      sources.has(id)
        ? {
            setData: (d: FC) => {
              sources.set(id, d);
              setData.set(id, (setData.get(id) ?? 0) + 1);
            },
          }
        : undefined,
    addSource: (id: string, spec: { data: FC; buffer?: number }) => {
      sources.set(id, spec.data);
      buffers.set(id, spec.buffer);
    },
    removeSource: (id: string) => sources.delete(id),
    getLayer: (id: string) => (layers.has(id) ? { id } : undefined),
    addLayer: (spec: { id: string }) => layers.add(spec.id),
    removeLayer: (id: string) => layers.delete(id),
    fitBounds: (b: unknown) => fits.push(b),
    jumpTo: (o: unknown) => fits.push(o),
    getBounds: () => ({ contains: () => false }),
  };
  return {
    map: map as unknown as MapLibreMap,
    fire: map.fire,
    sources,
    setData,
    layers,
    fits,
    paint,
    loaded,
    buffers,
  };
}

const T0 = Date.parse('2026-03-01T12:00:00Z');
function route(from: number, n: number, speed: (i: number) => number): RoutePoint[] {
  const r = parseRoute(
    Array.from({ length: n }, (_, k) => {
      const i = from + k;
      return {
        id: i + 1,
        deviceId: 1,
        latitude: -23.5 + i * 0.01,
        longitude: -46.6 + i * 0.01,
        speed: speed(i),
        course: 0,
        fixTime: new Date(T0 + i * 10_000).toISOString(),
        attributes: {},
      };
    }),
  );
  if (!r.ok) throw new Error(r.error);
  return r.points;
}

const colours = (fc: FC | undefined) => (fc?.features ?? []).map((f) => f.properties?.color as string);

describe('useRouteLoad: a route in pages', () => {
  afterEach(() => {
    pages.length = 0;
    told.extent = null;
    told.after = undefined;
    vi.restoreAllMocks();
  });

  it('draws each page once on the fixed scale: a faster later page recolours nothing and the camera fits once', async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    const scale = 60;
    // the first page at 10 kn, the second up to 120 kn: on the first page's own top speed it would be all red
    pages.push(
      route(0, 20, () => 10),
      route(20, 20, (i) => i * 3),
    );
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => scale));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(result.current.state).toMatchObject({ status: 'ok', complete: true });
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 40, pieces: 2 });
    // the first page's source was set once (clear, then the page) and keeps the fixed scale's colour
    expect(fake.setData.get('rastro-route')).toBe(2);
    expect(new Set(colours(fake.sources.get('rastro-route')))).toEqual(new Set([speedColor(10, scale)]));
    expect(colours(fake.sources.get('rastro-route-1'))).toContain(speedColor(100, scale));
    expect(fake.fits).toEqual([[-46.6, -23.5, -46.6 + 19 * 0.01, -23.5 + 19 * 0.01]]);
  });

  it("fits the view once to the whole route's extent when the first page tells it", async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    pages.push(
      route(0, 20, () => 10),
      route(20, 20, () => 10),
    );
    told.extent = [-47, -24, -46, -23];
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(result.current.state).toMatchObject({ status: 'ok', complete: true });
    expect(fake.fits).toEqual([[-47, -24, -46, -23]]);
  });

  it('draws fifty pages in two sources: the first page at once, the other forty-nine together once the last is in', async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    for (let k = 0; k < 50; k++) pages.push(route(k * 20, 20, (i) => i % 70));
    const seen: Array<{ first: number; rest: number }> = [];
    told.after = () =>
      seen.push({
        first: fake.sources.get('rastro-route')?.features.length ?? 0,
        rest: fake.sources.get('rastro-route-1')?.features.length ?? 0,
      });
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(result.current.state).toMatchObject({ status: 'ok', complete: true });
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 1000, pieces: 2 });
    const lines = [...fake.sources.keys()].filter((id) => id !== 'rastro-route-marks');
    expect(lines).toEqual(['rastro-route', 'rastro-route-1']);
    expect(fake.layers.size).toBe(5); // a line and an arrow layer per piece, and the marks
    // each tile holds a small margin of line beyond its edges, not MapLibre's default 128
    expect(fake.buffers.get('rastro-route')).toBeLessThanOrEqual(32);
    expect(fake.buffers.get('rastro-route-1')).toBeLessThanOrEqual(32);
    // the first page was on the map before the second page came; the rest only with the last page
    expect(seen[0].first).toBeGreaterThan(0);
    expect(seen.slice(0, 49).every((s) => s.rest === 0)).toBe(true);
    expect(seen[49].rest).toBeGreaterThan(0);
    // the rest's source was added once with every point after the first page, never set again
    expect(fake.setData.get('rastro-route-1')).toBeUndefined();
    const restPoints = (fake.sources.get('rastro-route-1')?.features ?? []).reduce(
      (n, f) => n + (f.geometry as GeoJSON.LineString).coordinates.length - 1,
      0,
    );
    expect(restPoints).toBe(1000 - 20);
  });

  it('on a slow link draws the rest as it grows, each time at least doubling it', async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    for (let k = 0; k < 10; k++) pages.push(route(k * 20, 20, () => 10));
    // each page comes 1.5 s after the one before
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1500));
    const drawnRest: number[] = [];
    told.after = () => drawnRest.push(window.__rastroRoute?.stats().points ?? 0);
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    // drawn points after each page: 20 at once, then 40 (20 after the first), 60, 100, 180, and all 200 at the end
    expect(drawnRest).toEqual([20, 40, 60, 60, 100, 100, 100, 100, 180, 200]);
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 200, pieces: 2 });
  });

  it('redrawDue: the last page always, before it only after REDRAW_MS and when the waiting points double the rest', () => {
    expect(redrawDue({ done: true, now: 0, drawnAt: 0, waiting: 1, drawn: 100 })).toBe(true);
    expect(redrawDue({ done: false, now: 999, drawnAt: 0, waiting: 100, drawn: 0 })).toBe(false);
    expect(redrawDue({ done: false, now: 1000, drawnAt: 0, waiting: 100, drawn: 0 })).toBe(true);
    expect(redrawDue({ done: false, now: 5000, drawnAt: 0, waiting: 99, drawn: 100 })).toBe(false);
    expect(redrawDue({ done: false, now: 5000, drawnAt: 0, waiting: 100, drawn: 100 })).toBe(true);
  });

  it('keeps the rest hidden until the map has its tiles, then shows line and arrows in one go', async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    pages.push(
      route(0, 20, () => 10),
      route(20, 20, () => 30),
    );
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    const shown = () => [
      fake.paint.get('rastro-route-line-1 line-opacity'),
      fake.paint.get('rastro-route-arrows-1 icon-opacity'),
    ];
    expect(shown()).toEqual([0, 0]);
    // another source's data, then the rest's source still tiling: still hidden
    fake.fire('sourcedata', { sourceId: 'rastro-route' });
    fake.fire('sourcedata', { sourceId: 'rastro-route-1' });
    expect(shown()).toEqual([0, 0]);
    fake.loaded.add('rastro-route-1');
    fake.fire('sourcedata', { sourceId: 'rastro-route-1' });
    expect(shown()).toEqual([0.9, 1]);
    // the first page was never hidden
    expect(fake.paint.get('rastro-route-line line-opacity')).toBeUndefined();
  });

  it('shows the rest at the next idle map even when no source event says it is loaded', async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    pages.push(
      route(0, 20, () => 10),
      route(20, 20, () => 30),
    );
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(fake.paint.get('rastro-route-line-1 line-opacity')).toBe(0);
    fake.fire('idle', {});
    expect(fake.paint.get('rastro-route-line-1 line-opacity')).toBe(0.9);
  });
});
