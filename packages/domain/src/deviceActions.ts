// SPEC §4/§6 device actions: which of them a user may use on a device, in which state (anchored, blocked). One rule
// for the detail's buttons, the monitoring panel's block button and the slide-to-confirm dialog that runs block,
// unlock, anchor and delete; the server's gate asks the same access table (access.ts → apiPermissions.ts).
import { allows, type Capability } from './access.ts';
import { isLocked } from './filters.ts';
import type { PermissionContext } from './permissions.ts';
import type { Position } from './types.ts';

export const DEVICE_ACTIONS = [
  'block',
  'unlock',
  'anchor',
  'commands',
  'share',
  'history',
  'telemetry',
  'edit',
  'delete',
] as const;
export type DeviceActionKey = (typeof DEVICE_ACTIONS)[number];

/** What of a device's state its actions depend on. */
export interface DeviceActionState {
  /** An anchor fence is linked to it: the anchor action turns it off, which is a permission of its own. */
  anchored: boolean;
  /** Its last position reports the engine blocked. Block and unlock are both still offered (a report can lag the
   *  relay, and sending one again is harmless); the state marks the block button as the one in force. */
  blocked: boolean;
}

/** The state of a device from the live store's anchor mark and its last position (attribute `blocked`). */
export function deviceActionState(
  anchored: boolean,
  position: Position | null | undefined,
): DeviceActionState {
  return { anchored, blocked: isLocked(position) };
}

/** The access table's capability of each action; `anchored` picks the anchor direction (on: the action turns it off). */
function capabilityOf(action: DeviceActionKey, { anchored }: DeviceActionState): Capability {
  switch (action) {
    case 'block':
      return 'device.block';
    case 'unlock':
      return 'device.unlock';
    case 'anchor':
      return anchored ? 'device.anchorOff' : 'device.anchor';
    case 'commands':
      return 'device.command';
    case 'share':
      return 'device.share';
    case 'history':
      return 'device.history';
    case 'telemetry':
      return 'device.telemetry';
    case 'edit':
      return 'device.edit';
    case 'delete':
      return 'device.delete';
  }
}

/**
 * Whether `action` is open to the user, as the access table (access.ts) says: readonly accounts, limitCommands and
 * denied advanced bits close the command actions (block/unlock/commands are ad-hoc commands, which the server
 * refuses to both), deviceReadonly closes edit/delete; the telemetry chart needs reports (a period's positions).
 */
export function deviceActionAllowed(
  ctx: PermissionContext,
  action: DeviceActionKey,
  state: DeviceActionState,
): boolean {
  const capability = capabilityOf(action, state);
  return allows(ctx, capability);
}

/** A button of a device's actions; `active` when the device is in the state it sets (anchored, blocked). */
export interface DeviceActionButton {
  key: DeviceActionKey;
  active: boolean;
}

/** The actions shown on a device's detail, in display order. */
export function deviceActionButtons(ctx: PermissionContext, state: DeviceActionState): DeviceActionButton[] {
  return DEVICE_ACTIONS.filter((key) => deviceActionAllowed(ctx, key, state)).map((key) => ({
    key,
    active: (key === 'anchor' && state.anchored) || (key === 'block' && state.blocked),
  }));
}
