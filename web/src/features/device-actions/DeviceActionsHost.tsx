// The global host of the slide-to-confirm dialogs (SPEC §4): shows the action asked for with the shell's
// openDeviceAction (block, unlock, anchor, delete) in one dialog (ActionDialog.tsx, loaded with the first one).
// It also clears pending commands once their device reports again.
import { lazy, Suspense, useEffect } from 'react';
import { closeDeviceAction, useDeviceAction } from '../../shell/deviceActions.ts';
import { useLive } from '../../stores/live.ts';
import { deliveredPending, usePendingCommands } from '../../stores/pendingCommands.ts';

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
  const open = useDeviceAction((s) => s.open);
  usePendingWatcher();

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ActionDialog key={open.seq} action={open} onClose={closeDeviceAction} />
    </Suspense>
  );
}
