// The live map is created in the commit that mounts it, before the page paints (issue #31, session 20): its WebGL
// context and first programs then reach the GPU process ahead of the shell's first frame. A sibling's layout effect
// runs after MapView's in the same commit and before any paint, so it sees the map only when MapView made it there.
import { useLayoutEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { MapView } from './MapView.tsx';

const made = vi.hoisted(() => ({ maps: 0, options: {} as Record<string, unknown> }));

vi.mock('maplibre-gl', () => {
  // a map that accepts every call (the controller and the draw layer only register listeners and layers here)
  const noop = () => undefined;
  class FakeMap {
    constructor(options: Record<string, unknown>) {
      made.maps++;
      made.options = options;
      return new Proxy(this, {
        get: (target, key) =>
          key in target
            ? (target as Record<string | symbol, unknown>)[key]
            : key === 'getCanvas'
              ? () => document.createElement('canvas')
              : noop,
      });
    }
  }
  class Control {}
  return {
    Map: FakeMap,
    AttributionControl: Control,
    NavigationControl: Control,
    ScaleControl: Control,
    setWorkerUrl: noop,
  };
});
vi.mock('../../api/socket.ts', () => ({
  openSocket: () => Promise.resolve(),
  firstPositions: () => new Promise(() => undefined),
  firstPositionsIn: () => false,
}));
vi.mock('../../api/mapIcons.ts', () => ({ prefetchIcons: () => Promise.resolve(new Map()) }));

function SeesMap({ seen }: { seen: number[] }) {
  useLayoutEffect(() => {
    seen.push(made.maps);
  }, [seen]);
  return null;
}

describe('MapView', () => {
  beforeEach(() => {
    made.maps = 0;
    vi.stubGlobal('fetch', fakeFetch(() => json([])).fn);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('creates the map in the commit that mounts it, before the page paints', () => {
    const seen: number[] = [];
    renderWithProviders(
      <>
        <MapView />
        <SeesMap seen={seen} />
      </>,
    );
    expect(seen).toEqual([1]);
  });

  it('draws symbols without a fade (each fade step is a frame, 300–700 ms in software WebGL)', () => {
    renderWithProviders(<MapView />);
    expect(made.options.fadeDuration).toBe(0);
  });
});
