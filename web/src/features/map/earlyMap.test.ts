// The map made while a person types on the sign-in page (earlyMap.ts): hidden and drawing nothing until MapView
// adopts it into its container, in the user's language; a map of another style is thrown away, and a map is adopted
// once only.
import { afterEach, describe, expect, it, vi } from 'vitest';

const made = vi.hoisted(() => ({ maps: [] as Array<Record<string, unknown>> }));

vi.mock('maplibre-gl', () => {
  class Painter {
    frames = 0;
    render(): string {
      this.frames++;
      return 'drawn';
    }
  }
  class FakeMap {
    painter = new Painter();
    _locale: Record<string, string> = { 'Map.Title': 'Map' };
    removed = false;
    resized = 0;
    canvas = document.createElement('canvas');
    constructor(readonly options: { container: HTMLElement }) {
      options.container.appendChild(this.canvas);
      made.maps.push(this as unknown as Record<string, unknown>);
    }
    handlers = new Map<string, () => void>();
    sources = new Map<string, { data: GeoJSON.FeatureCollection }>();
    layers = new Map<string, { source: string; type: string; paint?: unknown }>();
    loaded = false;
    once(event: string, handler: () => void) {
      this.handlers.set(event, handler);
    }
    getCanvas() {
      return this.canvas;
    }
    getSource(id: string) {
      return this.sources.get(id);
    }
    addSource(id: string, spec: { data: GeoJSON.FeatureCollection }) {
      this.sources.set(id, spec);
    }
    removeSource(id: string) {
      this.sources.delete(id);
    }
    addLayer(layer: { id: string; source: string; type: string }) {
      this.layers.set(layer.id, layer);
    }
    getLayer(id: string) {
      return this.layers.get(id);
    }
    getLayersOrder() {
      return [...this.layers.keys()];
    }
    removeLayer(id: string) {
      this.layers.delete(id);
    }
    isSourceLoaded() {
      return this.loaded;
    }
    hasImage() {
      return false;
    }
    addImage() {}
    triggerRepaint() {}
    unproject([x, y]: [number, number]) {
      return { toArray: () => [x / 100, y / 100] };
    }
    _getUIString(key: string) {
      return this._locale[key];
    }
    resize() {
      this.resized++;
    }
    remove() {
      this.removed = true;
    }
  }
  return { Map: FakeMap, setWorkerUrl: () => undefined };
});
vi.mock('../../api/mapIcons.ts', () => ({ prefetchIcons: () => Promise.resolve(new Map()) }));

interface Fake {
  painter: { render(): unknown; frames: number };
  handlers: Map<string, () => void>;
  sources: Map<string, { data: GeoJSON.FeatureCollection }>;
  layers: Map<string, { source: string; type: string; paint?: unknown }>;
  loaded: boolean;
  options: { container: HTMLElement; attributionControl: unknown };
  removed: boolean;
  resized: number;
  canvas: HTMLCanvasElement;
}

async function fresh() {
  vi.resetModules();
  made.maps = [];
  document.body.innerHTML = '';
  const { startEarlyMap, adoptEarlyMap } = await import('./earlyMap.ts');
  const { resolveStyle, mapStyles } = await import('./styles.ts');
  const { useSession } = await import('../../stores/session.ts');
  const { usePrefs } = await import('../../stores/prefs.ts');
  const s = useSession.getState();
  const styleId = resolveStyle(mapStyles(s.server, s.ns), usePrefs.getState().mapStyle).id;
  return { startEarlyMap, adoptEarlyMap, styleId };
}

describe('early map', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('is made hidden, draws nothing, and is adopted into the given container in the user’s language', async () => {
    const { startEarlyMap, adoptEarlyMap, styleId } = await fresh();
    startEarlyMap();
    startEarlyMap(); // once
    expect(made.maps).toHaveLength(1);
    const map = made.maps[0] as unknown as Fake;
    const hidden = map.options.container;
    expect(hidden.parentElement).toBe(document.body);
    expect(hidden.style.visibility).toBe('hidden');
    // at the shell's map size: jsdom's window is 1024 × 768, a desktop shell (side rail 51 px, header 52 px)
    expect([hidden.style.left, hidden.style.width, hidden.style.height]).toEqual(['51px', '973px', '716px']);
    expect(hidden.getAttribute('aria-hidden')).toBe('true');
    expect(map.options.attributionControl).toBe(false);
    expect(map.painter.render()).toBeUndefined();

    const el = document.createElement('div');
    document.body.appendChild(el);
    expect(adoptEarlyMap(el, styleId, { 'Map.Title': 'Mapa' })).toBe(map);
    expect(hidden.parentElement).toBe(el);
    expect(hidden.style.visibility).toBe('');
    expect(hidden.hasAttribute('aria-hidden')).toBe(false);
    expect(map.canvas.getAttribute('aria-label')).toBe('Mapa');
    expect(map.painter.render()).toBe('drawn');
    expect(map.resized).toBe(1);
    // adopted once: a second MapView (or a remount) makes its own
    expect(adoptEarlyMap(el, styleId, {})).toBeNull();
  });

  it('draws one hidden frame with a stand-in for each of the live map’s layers, then removes them', async () => {
    const { startEarlyMap } = await fresh();
    const { geofenceLayers, labelLayerSpecs } = await import('./layers.ts');
    startEarlyMap();
    const map = made.maps[0] as unknown as Fake;
    map.handlers.get('style.load')?.();
    await vi.waitFor(() => expect(map.layers.size).toBeGreaterThan(0));
    const warm = [...map.layers.values()];
    // the fences (fill, line) and the texts (fence names, labels) link their own programs: each has its twin
    for (const live of [...geofenceLayers(), ...labelLayerSpecs(false)]) {
      const twin = warm.find(
        (l) => l.type === live.type && JSON.stringify(l.paint) === JSON.stringify(live.paint),
      );
      expect(twin, live.id).toBeDefined();
      expect(twin?.source).toMatch(/^rastro-warm-/);
    }
    expect(warm.map((l) => l.type)).toEqual(expect.arrayContaining(['fill', 'line', 'circle', 'symbol']));
    // a text needs a text to draw: a stand-in vehicle has a label, the stand-in fence a name
    const props = [...map.sources.values()].flatMap((s) => s.data.features.map((f) => f.properties ?? {}));
    expect(props.some((p) => p.label)).toBe(true);
    expect(props.some((p) => p.name)).toBe(true);

    // nothing is drawn until every stand-in's tiles are in, then one frame, then the stand-ins go
    map.painter.render();
    expect(map.painter.frames).toBe(0);
    map.loaded = true;
    map.painter.render();
    map.painter.render();
    expect(map.painter.frames).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(map.layers.size).toBe(0);
    expect(map.sources.size).toBe(0);
  });

  it('is thrown away when the signed-in user’s style is another one', async () => {
    const { startEarlyMap, adoptEarlyMap } = await fresh();
    startEarlyMap();
    const map = made.maps[0] as unknown as Fake;
    const el = document.createElement('div');
    expect(adoptEarlyMap(el, 'another-style', {})).toBeNull();
    expect(map.removed).toBe(true);
    expect(map.options.container.isConnected).toBe(false);
  });

  it('is removed when the page left /login and nobody adopted it (a page without the live map), kept on /login', async () => {
    vi.useFakeTimers();
    try {
      window.history.replaceState(null, '', '/login');
      const { startEarlyMap, adoptEarlyMap, styleId } = await fresh();
      startEarlyMap();
      const map = made.maps[0] as unknown as Fake;
      vi.advanceTimersByTime(60_000); // a slow typist, a refused sign-in: still on /login
      expect(map.removed).toBe(false);
      window.history.replaceState(null, '', '/qr-driver');
      vi.advanceTimersByTime(10_000);
      expect(map.removed).toBe(false);
      vi.advanceTimersByTime(5_000);
      expect(map.removed).toBe(true);
      expect(map.options.container.isConnected).toBe(false);
      expect(adoptEarlyMap(document.createElement('div'), styleId, {})).toBeNull();
    } finally {
      vi.useRealTimers();
      window.history.replaceState(null, '', '/');
    }
  });

  it('is nothing to adopt when none was made', async () => {
    const { adoptEarlyMap, styleId } = await fresh();
    expect(adoptEarlyMap(document.createElement('div'), styleId, {})).toBeNull();
  });
});
