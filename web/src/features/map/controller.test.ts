/// <reference types="geojson" />
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { DEFAULT_MAP_PREF, MARKER_MOVE_MS, type Device, type Position } from '@rastro/domain';
import { SRC_DEVICES } from './layers.ts';
import {
  GLIDE_VIEW_LIMIT,
  PACED_PUSH_GAP_MS,
  LARGE_FLEET,
  LARGE_FLEET_LABEL_ZOOM,
  LiveMapController,
  MAX_GLIDES,
  type MapInputs,
} from './controller.ts';

type Diff = {
  add?: Array<{ id: number; geometry: GeoJSON.Point }>;
  remove?: number[];
  update?: Array<{ id: number; newGeometry: GeoJSON.Point }>;
};

/** Just enough of a MapLibre map: sources record setData/updateData calls. */
function fakeMap() {
  const handlers = new Map<string, Array<(e?: unknown) => void>>();
  const sources = new Map<
    string,
    {
      data: unknown;
      setData: ReturnType<typeof vi.fn>;
      updateData: ReturnType<typeof vi.fn>;
      options: Record<string, unknown>;
    }
  >();
  const layers = new Set<string>();
  const layerSources = new Map<string, string | undefined>();
  const zooms = new Map<string, number>();
  const map = {
    on(type: string, a: unknown, b?: unknown) {
      const fn = (typeof a === 'function' ? a : b) as (e?: unknown) => void;
      handlers.set(type, [...(handlers.get(type) ?? []), fn]);
    },
    addSource(id: string, options: Record<string, unknown>) {
      sources.set(id, {
        data: options.data,
        options,
        setData: vi.fn(),
        updateData: vi.fn(() => Promise.resolve()),
      });
    },
    getSource: (id: string) => sources.get(id),
    removeSource: (id: string) => sources.delete(id),
    addLayer: (l: { id: string; source?: string; minzoom?: number }) => {
      layers.add(l.id);
      layerSources.set(l.id, l.source);
      zooms.set(l.id, l.minzoom ?? 0);
    },
    getLayersOrder: () => [...layers],
    setLayerZoomRange: vi.fn((id: string, min: number) => zooms.set(id, min)),
    getLayer: (id: string) => (layers.has(id) ? { id, source: layerSources.get(id) } : undefined),
    removeLayer: (id: string) => layers.delete(id),
    setFilter: vi.fn(),
    setLayoutProperty: vi.fn(),
    hasImage: () => false,
    addImage: vi.fn(),
    setStyle: vi.fn(),
    getCanvas: () => ({ style: {} }),
    getContainer: () => document.createElement('div'),
    flyTo: vi.fn(),
    easeTo: vi.fn(),
  };
  const fire = async (type: string) => {
    for (const h of handlers.get(type) ?? []) await h();
  };
  return { map: map as unknown as MapLibreMap & typeof map, sources, layers, zooms, fire };
}

const dev = (id: number, p: Partial<Device> = {}) =>
  ({
    id,
    name: `D${id}`,
    uniqueId: `u${id}`,
    status: 'online',
    category: 'car',
    attributes: {},
    ...p,
  }) as Device;
const pos = (deviceId: number, lon: number, lat: number, id = deviceId * 100) =>
  ({
    id,
    deviceId,
    latitude: lat,
    longitude: lon,
    course: 0,
    accuracy: 0,
    attributes: {},
  }) as unknown as Position;

let frames: Array<(t: number) => void> = [];
let now = 0;
beforeEach(() => {
  frames = [];
  now = 1000;
  vi.stubGlobal('requestAnimationFrame', (fn: (t: number) => void) => frames.push(fn));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
const runFrame = (t: number) => {
  now = t;
  const f = frames.splice(0);
  f.forEach((fn) => fn(t));
};

interface View {
  bounds?: [number, number, number, number]; // west, south, east, north
  zoom?: number;
  /** ids queryRenderedFeatures reports on the device symbol layer */
  individual?: number[];
}

async function setup(clustered = false, view?: View) {
  const fm = fakeMap();
  if (view) {
    const [w, s, e, n] = view.bounds ?? [-180, -85, 180, 85];
    Object.assign(fm.map, {
      getBounds: () => ({ getWest: () => w, getSouth: () => s, getEast: () => e, getNorth: () => n }),
      getZoom: () => view.zoom ?? 10,
      queryRenderedFeatures: vi.fn(() => (view.individual ?? []).map((id) => ({ id }))),
    });
  }
  const c = new LiveMapController(fm.map, {
    ns: 'rastro',
    icons: Promise.resolve(new Map()),
    statusText: (s) => s,
    onSelect: () => undefined,
  });
  await fm.fire('style.load');
  await new Promise((r) => setTimeout(r, 0)); // icons load, then layers are added
  const mapPref = { ...DEFAULT_MAP_PREF, clustered };
  const inputs = (devices: Device[], positions: Record<number, Position>): MapInputs => ({
    devices,
    positions,
    mapPref,
    selectedId: null,
    trail: [],
  });
  return { ...fm, c, inputs };
}

describe('LiveMapController', () => {
  it('draws every device with a position in ONE source and one symbol layer', async () => {
    const { c, sources, layers, inputs } = await setup();
    c.update(inputs([dev(1), dev(2), dev(3)], { 1: pos(1, 10, 20), 2: pos(2, 11, 21) }));
    const src = sources.get(SRC_DEVICES)!;
    expect((src.data as GeoJSON.FeatureCollection).features.map((f) => f.id)).toEqual([1, 2]);
    expect(layers.has('rastro-devices-symbol')).toBe(true);
    expect(c.featureCount).toBe(2);
  });

  it('adds its layers at once to a map whose style loaded before it (the early map, earlyMap.ts)', async () => {
    const fm = fakeMap();
    Object.assign(fm.map, { style: { _loaded: true } });
    const c = new LiveMapController(fm.map, {
      ns: 'rastro',
      icons: Promise.resolve(new Map()),
      statusText: (s) => s,
      onSelect: () => undefined,
    });
    await new Promise((r) => setTimeout(r, 0)); // icons load, then layers are added
    expect(c.styled).toBe(true);
    c.update({
      devices: [dev(1)],
      positions: { 1: pos(1, 10, 20) },
      mapPref: DEFAULT_MAP_PREF,
      selectedId: null,
      trail: [],
    });
    expect(fm.layers.has('rastro-devices-symbol')).toBe(true);
  });

  it('glides a moved marker over 500 ms, sending only the moving feature each frame', async () => {
    const { c, sources, inputs } = await setup();
    const devices = [dev(1), dev(2)];
    const still = pos(2, 11, 21);
    c.update(inputs(devices, { 1: pos(1, 10, 20), 2: still }));
    const src = sources.get(SRC_DEVICES)!;
    c.update(inputs(devices, { 1: pos(1, 12, 22, 101), 2: still }));
    const first = src.updateData.mock.calls.at(-1)![0] as Diff;
    expect(first.add!.map((f) => f.id)).toEqual([1]);
    expect(first.add![0].geometry.coordinates).toEqual([10, 20]); // starts where it was drawn

    runFrame(1000 + MARKER_MOVE_MS / 2);
    const mid = src.updateData.mock.calls.at(-1)![0] as Diff;
    expect(mid.update!.map((u) => u.id)).toEqual([1]);
    expect(mid.update![0].newGeometry.coordinates).toEqual([11, 21]); // eased half-way

    runFrame(1000 + MARKER_MOVE_MS);
    expect(c.drawnPosition(1)).toEqual([12, 22]);
    expect(frames).toHaveLength(0); // loop stops when nothing moves
  });

  it('removes devices that stop passing the filters, without a full reload', async () => {
    const { c, sources, inputs } = await setup();
    const positions = { 1: pos(1, 10, 20), 2: pos(2, 11, 21) };
    c.update(inputs([dev(1), dev(2)], positions));
    const src = sources.get(SRC_DEVICES)!;
    c.update(inputs([dev(2)], positions));
    expect((src.updateData.mock.calls.at(-1)![0] as Diff).remove).toEqual([1]);
    expect(src.setData).not.toHaveBeenCalled();
    expect(c.featureCount).toBe(1);
  });

  it('a clustered source is created with cluster on and then updated by diffs, never by a full reload', async () => {
    const { c, sources, layers, inputs } = await setup(true);
    const one = dev(1);
    const p1 = pos(1, 10, 20);
    c.update(inputs([one], { 1: p1 }));
    const src = sources.get(SRC_DEVICES)!;
    expect(src.options.cluster).toBe(true);
    expect(layers.has('rastro-clusters')).toBe(true);
    c.update(inputs([one, dev(2)], { 1: p1, 2: pos(2, 1, 2) }));
    expect(src.setData).not.toHaveBeenCalled();
    expect((src.updateData.mock.calls.at(-1)![0] as Diff).add!.map((f) => f.id)).toEqual([2]);
  });

  it(`spaces diffs to a clustered source by ${PACED_PUSH_GAP_MS} ms while nothing glides, sending what waits later`, async () => {
    const { c, sources, inputs } = await setup(true);
    const devices = [dev(1), dev(2)];
    c.update(inputs(devices, { 1: pos(1, 10, 20), 2: pos(2, 1, 2) }));
    const src = sources.get(SRC_DEVICES)!;
    c.update(inputs(devices, { 1: pos(1, 10, 20), 2: pos(2, 1, 3, 102) }));
    const afterFirst = src.updateData.mock.calls.length;
    now = 1050; // 50 ms later: another change waits
    c.update(inputs([dev(1)], { 1: pos(1, 10, 20) }));
    expect(src.updateData.mock.calls.length).toBe(afterFirst);
    runFrame(1060);
    expect(src.updateData.mock.calls.length).toBe(afterFirst);
    runFrame(1000 + PACED_PUSH_GAP_MS);
    expect(src.updateData.mock.calls.length).toBe(afterFirst + 1);
    expect((src.updateData.mock.calls.at(-1)![0] as Diff).remove).toEqual([2]);
    expect(frames).toHaveLength(0);
  });

  it('a marker out of view moves at once; one in view glides', async () => {
    const { c, sources, inputs } = await setup(false, { bounds: [0, 0, 20, 30] });
    const devices = [dev(1), dev(2)];
    c.update(inputs(devices, { 1: pos(1, 10, 20), 2: pos(2, 100, 60) }));
    const src = sources.get(SRC_DEVICES)!;
    c.update(inputs(devices, { 1: pos(1, 12, 22, 101), 2: pos(2, 102, 62, 201) }));
    const diff = src.updateData.mock.calls.at(-1)![0] as Diff;
    const at = (id: number) => diff.add!.find((f) => f.id === id)!.geometry.coordinates;
    expect(at(1)).toEqual([10, 20]); // starts its glide where it was drawn
    expect(at(2)).toEqual([102, 62]); // out of view: straight to the new position
    runFrame(1000 + MARKER_MOVE_MS / 2);
    expect((src.updateData.mock.calls.at(-1)![0] as Diff).update!.map((u) => u.id)).toEqual([1]);
  });

  it('on a clustered map only markers drawn on their own glide; one inside a cluster moves at once', async () => {
    const view: View = { zoom: 12, individual: [1] };
    const { c, sources, inputs, map } = await setup(true, view);
    const devices = [dev(1), dev(2)];
    c.update(inputs(devices, { 1: pos(1, 10, 20), 2: pos(2, 11, 21) }));
    const src = sources.get(SRC_DEVICES)!;
    c.update(inputs(devices, { 1: pos(1, 12, 22, 101), 2: pos(2, 13, 23, 201) }));
    const diff = src.updateData.mock.calls.at(-1)![0] as Diff;
    const at = (id: number) => diff.add!.find((f) => f.id === id)!.geometry.coordinates;
    expect(at(1)).toEqual([10, 20]);
    expect(at(2)).toEqual([13, 23]);
    expect(
      (map as unknown as { queryRenderedFeatures: ReturnType<typeof vi.fn> }).queryRenderedFeatures,
    ).toHaveBeenCalledWith({ layers: ['rastro-devices-symbol'] });
    // above the zoom where clusters break up, every marker in view glides
    view.zoom = 15;
    c.update(inputs(devices, { 1: pos(1, 12, 22, 101), 2: pos(2, 15, 25, 202) }));
    now = 1300;
    runFrame(1300);
    const mid = src.updateData.mock.calls.at(-1)![0] as Diff;
    const sent = [
      ...(mid.add ?? []).map((f) => [f.id, f.geometry.coordinates] as const),
      ...(mid.update ?? []).map((u) => [u.id, u.newGeometry.coordinates] as const),
    ].find(([id]) => id === 2)?.[1];
    expect(sent?.[0]).toBeGreaterThan(13);
    expect(sent?.[0]).toBeLessThan(15);
  });

  it(`glides at most ${MAX_GLIDES} markers at once; the others jump`, async () => {
    const { c, sources, inputs } = await setup(false, {});
    const n = MAX_GLIDES + 50;
    const devices = Array.from({ length: n }, (_, i) => dev(i + 1));
    const at = (shift: number, v = 0) =>
      Object.fromEntries(devices.map((d) => [d.id, pos(d.id, d.id / 100 + shift, 1, d.id * 100 + v)]));
    c.update(inputs(devices, at(0)));
    const src = sources.get(SRC_DEVICES)!;
    c.update(inputs(devices, at(1, 1)));
    runFrame(1000 + MARKER_MOVE_MS / 2);
    expect((src.updateData.mock.calls.at(-1)![0] as Diff).update).toHaveLength(MAX_GLIDES);
  });

  it(`with more than ${GLIDE_VIEW_LIMIT} markers in view none glides and diffs are spaced`, async () => {
    const { c, sources, inputs } = await setup(false, { bounds: [0, 0, 100, 100] });
    const n = GLIDE_VIEW_LIMIT + 1;
    const devices = Array.from({ length: n }, (_, i) => dev(i + 1));
    const at = (shift: number, v = 0) =>
      Object.fromEntries(devices.map((d) => [d.id, pos(d.id, d.id / 100 + shift, 1, d.id * 100 + v)]));
    c.update(inputs(devices, at(0)));
    const src = sources.get(SRC_DEVICES)!;
    c.update(inputs(devices, at(1, 1)));
    const calls = src.updateData.mock.calls.length;
    const diff = src.updateData.mock.calls.at(-1)![0] as Diff;
    expect(diff.add![0].geometry.coordinates).toEqual([1.01, 1]); // jumped to its new position
    now = 1100;
    c.update(inputs(devices, at(2, 2)));
    expect(src.updateData.mock.calls.length).toBe(calls); // waits: 100 ms after the last diff
    runFrame(1000 + PACED_PUSH_GAP_MS);
    expect(src.updateData.mock.calls.length).toBe(calls + 1);
  });

  it(`labels of a fleet over ${LARGE_FLEET} devices show from zoom ${LARGE_FLEET_LABEL_ZOOM}; smaller fleets at every zoom`, async () => {
    const { c, zooms, layers, inputs } = await setup(false);
    const make = (n: number) => {
      const devices = Array.from({ length: n }, (_, i) => dev(i + 1));
      return inputs(devices, Object.fromEntries(devices.map((d) => [d.id, pos(d.id, d.id / 1000, 1)])));
    };
    c.update(make(LARGE_FLEET));
    c.showLabels();
    expect(layers.has('rastro-devices-label')).toBe(true);
    expect(zooms.get('rastro-devices-label')).toBe(0);
    c.update(make(LARGE_FLEET + 1));
    expect(zooms.get('rastro-devices-label')).toBe(LARGE_FLEET_LABEL_ZOOM);
    c.update(make(10));
    expect(zooms.get('rastro-devices-label')).toBe(0);
  });

  it('draws no text until showLabels (the first markers need no glyphs); then labels, names and counts stay', async () => {
    const { c, layers, inputs, map } = await setup(true);
    const texts = ['rastro-devices-label', 'rastro-cluster-count', 'rastro-geofences-label'];
    c.update(inputs([dev(1), dev(2)], { 1: pos(1, 10, 20), 2: pos(2, 11, 21) }));
    expect(layers.has('rastro-devices-symbol')).toBe(true);
    expect(layers.has('rastro-clusters')).toBe(true);
    expect(texts.filter((id) => layers.has(id))).toEqual([]);
    c.showLabels();
    expect(texts.filter((id) => layers.has(id))).toEqual(texts);
    // clustering switched: the device source and its layers are made again, with their texts
    c.update({
      ...inputs([dev(1)], { 1: pos(1, 10, 20) }),
      mapPref: { ...DEFAULT_MAP_PREF, clustered: false },
    });
    expect(layers.has('rastro-cluster-count')).toBe(false);
    expect(layers.has('rastro-devices-label')).toBe(true);
    expect(map.setLayoutProperty).toHaveBeenCalledWith(
      'rastro-geofences-label',
      'visibility',
      expect.any(String),
    );
  });

  it('highlights the selected device and flies to it at zoom 18 in 1.5 s', async () => {
    const { c, map, inputs } = await setup();
    c.update({ ...inputs([dev(1)], { 1: pos(1, 10, 20) }), selectedId: 1 });
    expect(map.setFilter).toHaveBeenCalledWith('rastro-selected', ['==', ['id'], 1]);
    c.flyTo(pos(1, 10, 20));
    expect(map.flyTo).toHaveBeenCalledWith(
      expect.objectContaining({ center: [10, 20], zoom: 18, duration: 1500 }),
    );
  });
});
