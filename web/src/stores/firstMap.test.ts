// The shell holds the panel's page until the map's first frame with the vehicles (issue #31), never for good.
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type FirstMap = typeof import('./firstMap.ts');
let m: FirstMap;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  m = await import('./firstMap.ts');
});
afterEach(() => vi.useRealTimers());

describe('first map frame (stores/firstMap.ts)', () => {
  it('holds the page until the map says its first frame is drawn, then keeps it shown', () => {
    const { result, rerender } = renderHook(() => m.useFirstMapDrawn());
    expect(result.current).toBe(false);
    act(() => m.markFirstMapDrawn());
    expect(result.current).toBe(true);
    act(() => m.markFirstMapDrawn());
    rerender();
    expect(result.current).toBe(true);
    // a page mounted later (moving between pages) shows at once
    expect(renderHook(() => m.useFirstMapDrawn()).result.current).toBe(true);
  });

  it('shows the page after FIRST_MAP_WAIT_MS when no map starts (no WebGL)', () => {
    const { result } = renderHook(() => m.useFirstMapDrawn());
    act(() => vi.advanceTimersByTime(m.FIRST_MAP_WAIT_MS - 1));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('once a map has started, only the map shows the page: no timer lets the list in before the markers', () => {
    m.mapStarted();
    const { result } = renderHook(() => m.useFirstMapDrawn());
    act(() => vi.advanceTimersByTime(m.FIRST_MAP_WAIT_MS * 10));
    expect(result.current).toBe(false);
    act(() => m.markFirstMapDrawn());
    expect(result.current).toBe(true);
  });

  it('a map started after the page asked stops the timer', () => {
    const { result } = renderHook(() => m.useFirstMapDrawn());
    m.mapStarted();
    act(() => vi.advanceTimersByTime(m.FIRST_MAP_WAIT_MS * 10));
    expect(result.current).toBe(false);
  });
});
