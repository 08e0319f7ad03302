// The map tells the shell its first frame with the vehicles is drawn (issue #31): the first time it is idle with
// our layers in and the socket's first positions applied, once.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as maplibregl from 'maplibre-gl';
import type { LiveMapController } from './controller.ts';

const socket = vi.hoisted(() => ({ in: false, resolve: () => undefined as void, done: Promise.resolve() }));
vi.mock('../../api/socket.ts', () => ({
  firstPositionsIn: () => socket.in,
  firstPositions: () => socket.done,
}));
const marked = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../stores/firstMap.ts', () => ({ markFirstMapDrawn: () => void marked.count++ }));

const { watchFirstFrame } = await import('./feedController.ts');

function fakeMap() {
  const handlers = new Set<() => void>();
  const map = {
    isLoaded: false,
    on: (_: string, h: () => void) => handlers.add(h),
    off: (_: string, h: () => void) => handlers.delete(h),
    loaded: () => map.isLoaded,
    idle: () => [...handlers].forEach((h) => h()),
    listening: () => handlers.size,
  };
  return map;
}

describe('watchFirstFrame', () => {
  beforeEach(() => {
    marked.count = 0;
    socket.in = false;
    socket.done = new Promise<void>((r) => (socket.resolve = r));
  });

  it('marks the first idle frame that has our layers and the first positions, once', async () => {
    const map = fakeMap();
    const controller = { styled: false };
    watchFirstFrame(map as unknown as maplibregl.Map, controller as LiveMapController);
    map.isLoaded = true;
    map.idle(); // the base style drawn, our layers not in yet
    controller.styled = true;
    map.idle(); // layers in, positions not yet
    expect(marked.count).toBe(0);
    socket.in = true;
    map.isLoaded = false; // the positions' source still loading in the worker
    map.idle();
    expect(marked.count).toBe(0);
    map.isLoaded = true;
    map.idle();
    map.idle();
    expect(marked.count).toBe(1);
    expect(map.listening()).toBe(0);
  });

  it('an empty fleet: marks when the first (empty) positions come to a map already idle', async () => {
    const map = fakeMap();
    map.isLoaded = true;
    watchFirstFrame(map as unknown as maplibregl.Map, { styled: true } as LiveMapController);
    map.idle();
    expect(marked.count).toBe(0);
    socket.in = true;
    socket.resolve();
    await socket.done;
    await Promise.resolve();
    expect(marked.count).toBe(1);
  });
});
