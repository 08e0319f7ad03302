// The global host of the slide-to-confirm dialogs (SPEC §4): listens to the window events openBlockModal,
// openUnlockModal, openAnchorModal and openDeleteModal (detail { device, command }) and shows one dialog
// (ActionDialog.tsx, loaded with the first one). It also clears pending commands once their device reports again.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLive } from '../../stores/live.ts';
import { deliveredPending, usePendingCommands } from '../../stores/pendingCommands.ts';
import type { OpenAction } from './ActionDialog.tsx';
import { OPEN_EVENTS, type ActionEventDetail, type ActionKind } from './actions.ts';

const ActionDialog = lazy(() => import('./ActionDialog.tsx').then((m) => ({ default: m.ActionDialog })));

/** Clears pending commands once their device reports again (or a delivery event arrives). */
function usePendingWatcher() {
  useEffect(() => {
    const check = () => {
      const pending = usePendingCommands.getState().byDevice;
      if (!Object.keys(pending).length) return;
      const { devices, positions, events } = useLive.getState();
      for (const [id, type] of deliveredPending(pending, devices, positions, events))
        usePendingCommands.getState().clear(id, type);
    };
    const offLive = useLive.subscribe(check);
    const offPending = usePendingCommands.subscribe(check);
    return () => {
      offLive();
      offPending();
    };
  }, []);
}

export function DeviceActionsHost() {
  const [open, setOpen] = useState<OpenAction | null>(null);
  const seq = useRef(0);
  usePendingWatcher();

  useEffect(() => {
    const handlers = (Object.keys(OPEN_EVENTS) as ActionKind[]).map((kind) => {
      const fn = (e: Event) => {
        const detail = (e as CustomEvent<ActionEventDetail>).detail;
        if (!detail?.device) return;
        seq.current += 1;
        setOpen({ ...detail, kind, seq: seq.current });
      };
      window.addEventListener(OPEN_EVENTS[kind], fn);
      return () => window.removeEventListener(OPEN_EVENTS[kind], fn);
    });
    return () => handlers.forEach((off) => off());
  }, []);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ActionDialog key={open.seq} action={open} onClose={() => setOpen(null)} />
    </Suspense>
  );
}
