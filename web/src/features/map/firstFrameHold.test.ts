// The map draws nothing until its first frame can hold the vehicles, then draws as usual (issue #31, session 23).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { FIRST_FRAME_HOLD_MS, holdFirstFrame } from './firstFrameHold.ts';

class FakePainter {
  drawn = 0;
  render(): void {
    this.drawn++;
  }
}

function fakeMap() {
  const painter = new FakePainter();
  const map = { painter, triggerRepaint: vi.fn() };
  // what MapLibre's loop does at each of its frames
  const frame = () => map.painter.render();
  return { map, painter, frame };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('holdFirstFrame', () => {
  it('draws nothing until the vehicles are ready, then every frame; tells once after the first', () => {
    const { map, painter, frame } = fakeMap();
    let ready = false;
    const drawn = vi.fn();
    holdFirstFrame(map as unknown as MapLibreMap, () => ready, drawn);
    frame(); // the style loaded: the background alone
    frame(); // our sources added, their tiles not made yet
    expect(painter.drawn).toBe(0);
    ready = true;
    frame();
    expect(painter.drawn).toBe(1);
    expect(drawn).toHaveBeenCalledTimes(1);
    ready = false; // never asked again
    frame();
    expect(painter.drawn).toBe(2);
    vi.advanceTimersByTime(FIRST_FRAME_HOLD_MS);
    expect(drawn).toHaveBeenCalledTimes(1);
    expect(map.triggerRepaint).not.toHaveBeenCalled();
  });

  it(`draws anyway after ${FIRST_FRAME_HOLD_MS} ms when the vehicles never get ready`, () => {
    const { map, painter, frame } = fakeMap();
    const drawn = vi.fn();
    holdFirstFrame(map as unknown as MapLibreMap, () => false, drawn);
    frame();
    vi.advanceTimersByTime(FIRST_FRAME_HOLD_MS - 1);
    frame();
    expect(painter.drawn).toBe(0);
    vi.advanceTimersByTime(1);
    expect(map.triggerRepaint).toHaveBeenCalledTimes(1);
    frame();
    expect(painter.drawn).toBe(1);
    expect(drawn).toHaveBeenCalledTimes(1);
  });

  it('undone (the map removed): draws as usual and tells nothing', () => {
    const { map, painter, frame } = fakeMap();
    const drawn = vi.fn();
    const undo = holdFirstFrame(map as unknown as MapLibreMap, () => false, drawn);
    undo();
    frame();
    vi.advanceTimersByTime(FIRST_FRAME_HOLD_MS);
    expect(painter.drawn).toBe(1);
    expect(drawn).not.toHaveBeenCalled();
    expect(map.triggerRepaint).not.toHaveBeenCalled();
  });
});
