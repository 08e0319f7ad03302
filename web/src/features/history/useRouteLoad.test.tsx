// A long route drawn page by page (issue #31) on a real RouteOverlay over a fake map (MapLibre needs WebGL, which
// jsdom lacks): each page is drawn once on the colour scale fixed before the route arrives, a later (faster) page
// does not recolour the pieces drawn, and the camera is fitted once, to the first page.
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { parseRoute, speedColor, type RoutePoint } from '@rastro/domain';
import { defaultPeriod } from '../../components/PeriodPicker.tsx';
import { RouteOverlay } from '../../components/routeOverlay.ts';
import { useRouteLoad } from './useRouteLoad.ts';

const pages: RoutePoint[][] = [];
const told: { extent: [number, number, number, number] | null } = { extent: null };

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
  const container = document.createElement('div');
  const map = {
    on: () => undefined,
    off: () => undefined,
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
    addSource: (id: string, spec: { data: FC }) => sources.set(id, spec.data),
    removeSource: (id: string) => sources.delete(id),
    getLayer: (id: string) => (layers.has(id) ? { id } : undefined),
    addLayer: (spec: { id: string }) => layers.add(spec.id),
    removeLayer: (id: string) => layers.delete(id),
    fitBounds: (b: unknown) => fits.push(b),
    jumpTo: (o: unknown) => fits.push(o),
    getBounds: () => ({ contains: () => false }),
  };
  return { map: map as unknown as MapLibreMap, sources, setData, fits };
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
});
