// The version text opens the changelog only for an administrator clicking it 10 times, each click within 2 s of
// the last (SPEC §2, §9). The counting rule is a pure reducer in @rastro/domain.
import { useCallback, useRef } from 'react';

export const VERSION_CLICKS = 10;
export const VERSION_CLICK_WINDOW_MS = 2000;

interface ClickState {
  count: number;
  last: number | null;
}

export function versionClick(state: ClickState, now: number): { state: ClickState; open: boolean } {
  const count = state.last !== null && now - state.last <= VERSION_CLICK_WINDOW_MS ? state.count + 1 : 1;
  if (count >= VERSION_CLICKS) return { state: { count: 0, last: null }, open: true };
  return { state: { count, last: now }, open: false };
}

export function useVersionClicks(enabled: boolean, onOpen: () => void): () => void {
  const state = useRef<ClickState>({ count: 0, last: null });
  return useCallback(() => {
    if (!enabled) return;
    const r = versionClick(state.current, Date.now());
    state.current = r.state;
    if (r.open) onOpen();
  }, [enabled, onOpen]);
}
