// The slide-to-confirm device actions of SPEC §4 (engine block and unlock, anchor on/off, delete), opened by any
// feature with openDeviceAction({ kind, device, … }); features/device-actions/DeviceActionsHost.tsx shows the one
// asked for last. Which actions a user may use is the domain's rule (packages/domain/src/deviceActions.ts).
import { create } from 'zustand';
import type { Command, Device } from '@rastro/domain';

export type DeviceActionRequest =
  /** Engine block/unblock: engineStop/engineResume, or a command of the device's own (its type and attributes). */
  | { kind: 'block' | 'unlock'; device: Device; command?: Partial<Command> }
  /** Anchor on or off; `silent` acts without asking first (SPEC §4 silent mode). */
  | { kind: 'anchor'; device: Device; anchor: 'enable' | 'disable'; silent?: boolean }
  | { kind: 'delete'; device: Device };

/** The action shown; `seq` tells one opening from the next (a new dialog each time). */
export type OpenDeviceAction = DeviceActionRequest & { seq: number };

let seq = 0;

export const useDeviceAction = create<{ open: OpenDeviceAction | null }>(() => ({ open: null }));

/** Shows the action's dialog, replacing one already open. */
export function openDeviceAction(request: DeviceActionRequest): void {
  seq += 1;
  useDeviceAction.setState({ open: { ...request, seq } });
}

export function closeDeviceAction(): void {
  useDeviceAction.setState({ open: null });
}
