// SPEC §4/§6 device actions: which of them a user may use on a device, in which state (anchored or not). One rule
// for the detail's buttons and for the slide-to-confirm dialog that runs block, unlock, anchor and delete.
import { allows, type Capability } from './access.ts';
import type { PermissionContext } from './permissions.ts';

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

/** The access table's capability of each action; `anchored` picks the anchor direction (on: the action turns it off). */
function capabilityOf(action: DeviceActionKey, anchored: boolean): Capability | null {
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
      return null;
    case 'edit':
      return 'device.edit';
    case 'delete':
      return 'device.delete';
  }
}

/**
 * Whether `action` is open to the user, as the access table (access.ts) says: readonly accounts, limitCommands and
 * denied advanced bits close the command actions (block/unlock/commands are ad-hoc commands, which the server
 * refuses to both), deviceReadonly closes edit/delete; the telemetry chart is open to anyone signed in.
 */
export function deviceActionAllowed(
  ctx: PermissionContext,
  action: DeviceActionKey,
  anchored: boolean,
): boolean {
  const capability = capabilityOf(action, anchored);
  return capability ? allows(ctx, capability) : !!ctx.user;
}

/** The actions shown on a device's detail, in display order. */
export function deviceActionButtons(ctx: PermissionContext, anchored: boolean): DeviceActionKey[] {
  return DEVICE_ACTIONS.filter((a) => deviceActionAllowed(ctx, a, anchored));
}
