// The map tells the shell its first frame with the vehicles is drawn (issue #31): once the frame it held until the
// vehicles were ready is drawn (not at a later idle), or at once when the map fails; the texts come with it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as maplibregl from 'maplibre-gl';
import type { LiveMapController } from './controller.ts';

const socket = vi.hoisted(() => ({ in: false, resolve: () => undefined as void, done: Promise.resolve() }));
vi.mock('../../api/socket.ts', () => ({
  firstPositionsIn: () => socket.in,
  firstPositions: () => socket.done,
}));
const gate = vi.hoisted(() => ({ marked: 0, started: 0 }));
vi.mock('../../stores/firstMap.ts', () => ({
  markFirstMapDrawn: () => void gate.marked++,
  mapStarted: () => void gate.started++,
}));

const { watchFirstFrame } = await import('./feedController.ts');

class FakePainter {
  drawn = 0;
  render(): void {
    this.drawn++;
  }
}

function fakeMap() {
  const handlers = new Map<string, Set<() => void>>();
  const map = {
    painter: new FakePainter(),
    sourceLoaded: false,
    rendered: 0,
    on: (type: string, h: () => void) => handlers.set(type, (handlers.get(type) ?? new Set()).add(h)),
    off: (type: string, h: () => void) => void handlers.get(type)?.delete(h),
    fire: (type: string) => [...(handlers.get(type) ?? [])].forEach((h) => h()),
    getSource: () => ({}),
    getLayer: () => ({}),
    isSourceLoaded: () => map.sourceLoaded,
    queryRenderedFeatures: () => Array.from({ length: map.rendered }, (_, i) => ({ id: i })),
    loaded: () => true,
    triggerRepaint: vi.fn(),
    // one of MapLibre's frames: its loop, then an idle event
    frame: () => {
      map.painter.render();
      map.fire('idle');
    },
  };
  return map;
}

const controller = () => ({ styled: false, labels: 0, showLabels: vi.fn() });

beforeEach(() => {
  vi.useFakeTimers();
  gate.marked = 0;
  gate.started = 0;
  socket.in = false;
  socket.done = new Promise<void>((r) => (socket.resolve = r));
});
afterEach(() => vi.useRealTimers());

describe('watchFirstFrame', () => {
  it('draws nothing until our layers, the first positions and the device tiles are in; then tells the shell', () => {
    const map = fakeMap();
    const c = controller();
    watchFirstFrame(map as unknown as maplibregl.Map, c as unknown as LiveMapController);
    expect(gate.started).toBe(1);
    map.frame(); // the base style loaded: nothing of ours
    c.styled = true;
    map.frame(); // layers in, positions not yet
    socket.in = true;
    map.frame(); // the device tiles still in the worker (the old gate marked at this idle)
    vi.advanceTimersByTime(0);
    expect(map.painter.drawn).toBe(0);
    expect(gate.marked).toBe(0);
    map.rendered = 3; // some markers placed while live updates keep the source reloading
    map.frame();
    expect(map.painter.drawn).toBe(1);
    expect(c.showLabels).toHaveBeenCalledTimes(1); // in that frame: no idle before the texts are in
    expect(gate.marked).toBe(0); // the list once the browser has taken the frame
    vi.advanceTimersByTime(0);
    expect(gate.marked).toBe(1);
    expect(c.showLabels).toHaveBeenCalledTimes(1);
    map.frame();
    vi.advanceTimersByTime(0);
    expect(gate.marked).toBe(1);
  });

  it('an empty fleet: a frame is asked for when the first (empty) positions come', async () => {
    const map = fakeMap();
    const c = controller();
    c.styled = true;
    map.sourceLoaded = true;
    watchFirstFrame(map as unknown as maplibregl.Map, c as unknown as LiveMapController);
    map.frame();
    expect(map.painter.drawn).toBe(0);
    socket.in = true;
    socket.resolve();
    await socket.done;
    await Promise.resolve();
    expect(map.triggerRepaint).toHaveBeenCalled();
    map.frame();
    vi.advanceTimersByTime(0);
    expect(gate.marked).toBe(1);
  });

  it('a map that fails (its style, a tile) shows the page at once', () => {
    const map = fakeMap();
    watchFirstFrame(map as unknown as maplibregl.Map, controller() as unknown as LiveMapController);
    map.fire('error');
    expect(gate.marked).toBe(1);
  });
});
