// The version text opens the changelog only for an administrator clicking it 10 times, each click within 2 s of
// the last (SPEC §2, §9). The counting rule is versionClick in @rastro/domain.
import { CHANGELOG, initialClickCounter, versionClick, type ClickCounter } from '@rastro/domain';
import { useCallback, useRef } from 'react';

/** The app's version: the newest changelog entry. */
export const APP_VERSION = CHANGELOG[0].version;

export function useVersionClicks(
  isAdmin: boolean,
  onOpen: () => void,
  now: () => number = Date.now,
): () => void {
  const state = useRef<ClickCounter>(initialClickCounter());
  return useCallback(() => {
    const r = versionClick(state.current, now(), isAdmin);
    state.current = r.state;
    if (r.open) onOpen();
  }, [isAdmin, onOpen, now]);
}
