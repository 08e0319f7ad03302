// A long route drawn page by page (issue #31) on a real RouteOverlay over a fake map (MapLibre needs WebGL, which
// jsdom lacks): each page is drawn once on the colour scale fixed before the route arrives, a later (faster) page
// does not recolour the pieces drawn, and the camera is fitted once, to the first page. The pages after the first
// are given to the map as they come (each tiled once) and shown together when the map has them all (their tiles,
// not only their data indexed).
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { parseRoute, speedColor, type RoutePoint } from '@rastro/domain';
import { defaultPeriod } from '../../components/PeriodPicker.tsx';
import { RouteOverlay, type RouteMark } from '../../components/routeOverlay.ts';
import { pieceDue, revealDue, useRouteLoad } from './useRouteLoad.ts';

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
      await new Promise((r) => setTimeout(r, 0)); // the next page comes in a later task
    }
    return { ok: true, points: all };
  },
}));
/** The period's reports asked for so far, and the marks the extras make of a route. */
const extras: { asked: number; marks(points: RoutePoint[]): RouteMark[] } = { asked: 0, marks: () => [] };
vi.mock('./historyExtras.ts', async (actual) => ({
  endMarks: (await actual<typeof import('./historyExtras.ts')>()).endMarks,
  requestHistoryReports: async () => {
    extras.asked++;
    return { trips: [], stops: [], events: [] };
  },
  historyExtras: (_r: unknown, points: RoutePoint[]) => ({
    marks: extras.marks(points),
    chapters: [],
    eventTimes: [],
  }),
}));

type FC = GeoJSON.FeatureCollection;

/** A fake map; the sources named in `autoLoad` are loaded (and say so, then drawn) as soon as their data is set. */
function fakeMap(autoLoad: readonly string[] = ['rastro-route']) {
  const sources = new Map<string, FC>();
  const setData = new Map<string, number>();
  const layers = new Set<string>();
  const layerSources = new Map<string, string>();
  const fits: unknown[] = [];
  const paint = new Map<string, unknown>();
  const handlers = new Map<string, Set<(e: unknown) => void>>();
  const loaded = new Set<string>();
  const buffers = new Map<string, number | undefined>();
  const tolerances = new Map<string, number | undefined>();
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
              if (autoLoad.includes(id)) {
                loaded.add(id);
                map.fire('sourcedata', { sourceId: id });
                map.fire('render', {});
              }
            },
          }
        : undefined,
    addSource: (id: string, spec: { data: FC; buffer?: number; tolerance?: number }) => {
      sources.set(id, spec.data);
      buffers.set(id, spec.buffer);
      tolerances.set(id, spec.tolerance);
    },
    removeSource: (id: string) => sources.delete(id),
    getLayer: (id: string) => (layers.has(id) ? { id, source: layerSources.get(id) } : undefined),
    getLayersOrder: () => [...layers],
    addLayer: (spec: { id: string; source: string; paint?: Record<string, unknown> }) => {
      layers.add(spec.id);
      layerSources.set(spec.id, spec.source);
      for (const [name, value] of Object.entries(spec.paint ?? {})) paint.set(`${spec.id} ${name}`, value);
    },
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
    tolerances,
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
    extras.asked = 0;
    extras.marks = () => [];
    vi.restoreAllMocks();
  });

  it("asks for the period's reports with the first page and sets their marks with the last page, once", async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    for (let k = 0; k < 3; k++) pages.push(route(k * 20, 20, () => 10));
    const asked: number[] = [];
    told.after = () => asked.push(extras.asked);
    const at = (kind: RouteMark['kind'], p: RoutePoint) => ({
      kind,
      latitude: p.latitude,
      longitude: p.longitude,
    });
    extras.marks = (points) => [at('stop', points[30]), at('start', points[0]), at('end', points[59])];
    const show = { stops: true, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(asked).toEqual([1, 1, 1]);
    const kinds = () => fake.sources.get('rastro-route-marks')?.features.map((f) => f.properties?.kind);
    expect(kinds()).toEqual(['stop', 'start', 'end']);
    // cleared, the first page's start, then the reports' marks with the last page: none after it
    expect(fake.setData.get('rastro-route-marks')).toBe(3);
  });

  it('sets the same marks again without touching the map (a frame of the whole route)', () => {
    const fake = fakeMap();
    const overlay = new RouteOverlay(fake.map);
    const marks: RouteMark[] = [{ kind: 'start', latitude: -23.5, longitude: -46.6 }];
    overlay.setMarks(marks);
    overlay.setMarks([{ ...marks[0] }]);
    expect(fake.setData.get('rastro-route-marks')).toBe(1);
    overlay.setMarks([{ ...marks[0], label: 'a stop' }]);
    overlay.clear();
    overlay.setMarks(marks);
    expect(fake.setData.get('rastro-route-marks')).toBe(4);
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

  it('gives fifty pages to the map in few pieces, each tiled once, hidden until the last page is in', async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    for (let k = 0; k < 50; k++) pages.push(route(k * 20, 20, (i) => i % 70));
    const lineSources = () => [...fake.sources.keys()].filter((id) => id !== 'rastro-route-marks');
    const seen: Array<{ first: number; pieces: number }> = [];
    told.after = () =>
      seen.push({
        first: fake.sources.get('rastro-route')?.features.length ?? 0,
        pieces: lineSources().length,
      });
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(result.current.state).toMatchObject({ status: 'ok', complete: true });
    const ids = lineSources();
    // each piece about 1.5 times the one before: the early pages one each, the later ones gathered
    expect(ids.length).toBeGreaterThan(4);
    expect(ids.length).toBeLessThanOrEqual(12);
    expect(ids).toEqual(['rastro-route', ...ids.slice(1).map((_, k) => `rastro-route-${k + 1}`)]);
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 1000, pieces: ids.length });
    expect(fake.layers.size).toBe(2 * ids.length + 1); // a line and an arrow layer per piece, and the marks
    // the first page was on the map before the second page came, the second page in a piece as it came
    expect(seen[0]).toEqual({ first: expect.any(Number), pieces: 1 });
    expect(seen[0].first).toBeGreaterThan(0);
    expect(seen[1].pieces).toBe(2);
    // each tile holds a small margin of line beyond its edges, not MapLibre's default 128
    for (const id of ids) expect(fake.buffers.get(id)).toBeLessThanOrEqual(32);
    // simplified for the zoom shown more than MapLibre's default (0.375 pixels), within the 5-pixel line
    for (const id of ids) expect(fake.tolerances.get(id)).toBeGreaterThan(0.375);
    for (const id of ids) expect(fake.tolerances.get(id)).toBeLessThanOrEqual(2.5);
    // every piece after the first added once with its own points, never set again; together all the points
    const pieces = ids.slice(1);
    expect(pieces.every((id) => !fake.setData.has(id))).toBe(true);
    const points = pieces.reduce(
      (n, id) =>
        n +
        (fake.sources.get(id)?.features ?? []).reduce(
          (m, f) => m + (f.geometry as GeoJSON.LineString).coordinates.length - 1,
          0,
        ),
      0,
    );
    expect(points).toBe(1000 - 20);
    // hidden until the map has them all, then shown together
    const opacity = (id: string) => fake.paint.get(`${id.replace('route', 'route-line')} line-opacity`);
    expect(pieces.map(opacity).every((o) => o === 0)).toBe(true);
    for (const id of pieces.slice(0, -1)) {
      fake.loaded.add(id);
      fake.fire('sourcedata', { sourceId: id });
    }
    expect(pieces.map(opacity).every((o) => o === 0)).toBe(true);
    fake.loaded.add(pieces[pieces.length - 1]);
    fake.fire('sourcedata', { sourceId: pieces[pieces.length - 1] });
    expect(pieces.map(opacity).every((o) => o === 0.9)).toBe(true);
  });

  it('holds the pages that come before the first page is tiled, then gives them to the map as one piece', async () => {
    const fake = fakeMap([]);
    const overlay = { current: new RouteOverlay(fake.map) };
    pages.push(
      route(0, 20, () => 10),
      route(20, 20, () => 10),
      route(40, 20, () => 10),
    );
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(result.current.state).toMatchObject({ status: 'ok', complete: true });
    expect(fake.sources.has('rastro-route-1')).toBe(false);
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 60, pieces: 1 });
    fake.loaded.add('rastro-route');
    // MapLibre calls a GeoJSON source loaded once its data is indexed ('metadata'), before a tile is cut: the
    // held pages wait for its tiles
    fake.fire('sourcedata', { sourceId: 'rastro-route', sourceDataType: 'metadata' });
    fake.fire('render', {});
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 60, pieces: 1 });
    fake.fire('sourcedata', { sourceId: 'rastro-route' });
    // given to the map after the frame that draws the first piece
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 60, pieces: 1 });
    fake.fire('render', {});
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(window.__rastroRoute?.stats()).toMatchObject({ points: 60, pieces: 2 });
    expect(fake.sources.has('rastro-route-2')).toBe(false);
    // the held pages were the last: shown once the map has them
    expect(fake.paint.get('rastro-route-line-1 line-opacity')).toBe(0);
    fake.loaded.add('rastro-route-1');
    fake.fire('sourcedata', { sourceId: 'rastro-route-1', sourceDataType: 'metadata' });
    expect(fake.paint.get('rastro-route-line-1 line-opacity')).toBe(0);
    fake.fire('sourcedata', { sourceId: 'rastro-route-1' });
    expect(fake.paint.get('rastro-route-line-1 line-opacity')).toBe(0.9);
  });

  it('on a slow link shows the pieces as the map has them, the line growing', async () => {
    const fake = fakeMap();
    const overlay = { current: new RouteOverlay(fake.map) };
    for (let k = 0; k < 4; k++) pages.push(route(k * 20, 20, () => 10));
    // each page comes 1.5 s after the one before, and the map has its tiles before the next
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1500));
    const shown: number[] = [];
    told.after = (k) => {
      if (k > 0) {
        fake.loaded.add(`rastro-route-${k}`);
        fake.fire('sourcedata', { sourceId: `rastro-route-${k}` });
      }
      shown.push(
        [1, 2, 3].filter((p) => fake.paint.get(`rastro-route-line-${p} line-opacity`) === 0.9).length,
      );
    };
    const show = { stops: false, events: false };
    const { result } = renderHook(() => useRouteLoad('UTC', overlay, show, () => 60));
    await act(async () => {
      await result.current.load(1, defaultPeriod('today'));
    });
    expect(shown).toEqual([0, 1, 2, 3]);
  });

  it("whenFirstDrawn: after the frame that draws the first page's tiles (not its 'metadata'); at once with no route on its way", async () => {
    const fake = fakeMap([]);
    const overlay = new RouteOverlay(fake.map);
    const calls: string[] = [];
    overlay.whenFirstDrawn(() => calls.push('none on its way'));
    overlay.setRoute(
      route(0, 20, () => 10),
      [],
      false,
      60,
    );
    overlay.whenFirstDrawn(() => calls.push('drawn'));
    expect(calls).toEqual(['none on its way']);
    fake.loaded.add('rastro-route');
    fake.fire('sourcedata', { sourceId: 'rastro-route', sourceDataType: 'metadata' });
    fake.fire('render', {});
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual(['none on its way']);
    fake.fire('sourcedata', { sourceId: 'rastro-route' });
    fake.fire('render', {});
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual(['none on its way', 'drawn']);
    // a cleared route lets what waited go
    overlay.setRoute(
      route(0, 20, () => 10),
      [],
      false,
      60,
    );
    overlay.whenFirstDrawn(() => calls.push('cleared'));
    overlay.clear();
    expect(calls).toEqual(['none on its way', 'drawn', 'cleared']);
  });

  it('pieceDue: the last page always, before it when the waiting points are half those given so far', () => {
    expect(pieceDue({ done: true, waiting: 0, drawn: 100 })).toBe(true);
    expect(pieceDue({ done: false, waiting: 20, drawn: 0 })).toBe(true);
    expect(pieceDue({ done: false, waiting: 0, drawn: 0 })).toBe(false);
    expect(pieceDue({ done: false, waiting: 49, drawn: 100 })).toBe(false);
    expect(pieceDue({ done: false, waiting: 50, drawn: 100 })).toBe(true);
  });

  it('revealDue: the last page always, before it once the last showing is REDRAW_MS old', () => {
    expect(revealDue({ done: true, now: 0, shownAt: 0 })).toBe(true);
    expect(revealDue({ done: false, now: 999, shownAt: 0 })).toBe(false);
    expect(revealDue({ done: false, now: 1000, shownAt: 0 })).toBe(true);
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
    expect(fake.paint.get('rastro-route-line line-opacity')).toBe(0.9);
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
