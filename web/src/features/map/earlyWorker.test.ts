// MapLibre's worker started by boot.ts is the one MapLibre's pool gets (issue #31, session 24): the pool creates its
// workers with `new Worker(url, { type: 'module' })` inside prewarm(), and the global constructor is back afterwards.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adoptEarlyWorker } from './earlyWorker.ts';

const early = vi.hoisted(() => ({ worker: undefined as unknown }));
vi.mock('../../boot.ts', () => ({
  takeMapWorker: () => {
    const w = early.worker;
    early.worker = undefined;
    return w;
  },
}));

class NativeWorker {
  constructor(
    readonly url: string,
    readonly options?: WorkerOptions,
  ) {}
  terminate = vi.fn();
}

describe('adoptEarlyWorker', () => {
  beforeEach(() => {
    vi.stubGlobal('Worker', NativeWorker);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    early.worker = undefined;
  });

  it("hands MapLibre's pool the early worker, once, and puts the constructor back", () => {
    const started = new NativeWorker('/assets/maplibre-gl-worker.js', { type: 'module' });
    early.worker = started;
    const made: unknown[] = [];
    const prewarm = () => {
      made.push(new Worker('/assets/maplibre-gl-worker.js', { type: 'module' }));
      made.push(new Worker('/assets/maplibre-gl-worker.js', { type: 'module' }));
    };
    expect(adoptEarlyWorker(prewarm)).toBe(true);
    expect(made[0]).toBe(started);
    expect(made[1]).toBeInstanceOf(NativeWorker);
    expect(made[1]).not.toBe(started);
    expect(globalThis.Worker).toBe(NativeWorker);
    expect(started.terminate).not.toHaveBeenCalled();
    // taken once: a later map's pool makes its own
    expect(adoptEarlyWorker(prewarm)).toBe(false);
  });

  it('leaves MapLibre alone when no worker was started early', () => {
    const prewarm = vi.fn();
    expect(adoptEarlyWorker(prewarm)).toBe(false);
    expect(prewarm).not.toHaveBeenCalled();
  });

  it('ends the early worker when MapLibre did not take it (a pool already running)', () => {
    const started = new NativeWorker('/assets/maplibre-gl-worker.js', { type: 'module' });
    early.worker = started;
    expect(adoptEarlyWorker(() => undefined)).toBe(false);
    expect(started.terminate).toHaveBeenCalled();
    expect(globalThis.Worker).toBe(NativeWorker);
  });
});
