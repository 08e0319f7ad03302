// The map made while a person types on the sign-in page (earlyMap.ts): hidden and drawing nothing until MapView
// adopts it into its container, in the user's language; a map of another style is thrown away, and a map is adopted
// once only.
import { afterEach, describe, expect, it, vi } from 'vitest';

const made = vi.hoisted(() => ({ maps: [] as Array<Record<string, unknown>> }));

vi.mock('maplibre-gl', () => {
  class Painter {
    render(): string {
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
    once() {}
    getCanvas() {
      return this.canvas;
    }
    getSource() {
      return undefined;
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
  painter: { render(): unknown };
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
