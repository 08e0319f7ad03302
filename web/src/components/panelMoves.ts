// The routed page's panel over the map (Panel.tsx) tells when it appears, moves or changes size (on a phone the
// device list turning into the detail sheet, the sheet minimised or expanded; on a desktop the panel widened), so
// the map can keep the selected vehicle in the part the panel leaves visible (issue #29).
const listeners = new Set<() => void>();

/** Calls `fn` after each change of the panel's box; returns the unsubscribe. */
export function onPanelMoved(fn: () => void): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/** Panel.tsx: its box changed. */
export function panelMoved(): void {
  for (const fn of listeners) fn();
}
