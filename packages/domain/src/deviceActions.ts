// SPEC §4/§6 device actions: which of them a user may use on a device, in which state (anchored or not). One rule
// for the detail's buttons and for the slide-to-confirm dialog that runs block, unlock, anchor and delete.
import {
  can,
  canAnchor,
  canBlock,
  canEditDevices,
  canSendCommands,
  isReadonly,
  isShared,
  canUnlock,
  type PermissionContext,
} from './permissions.ts';

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

/**
 * Whether `action` is open to the user: readonly accounts, limitCommands and denied advanced bits close the
 * command actions (block/unlock/commands are ad-hoc commands, which the server refuses to both), deviceReadonly
 * closes edit/delete. `anchored` picks the anchor direction (on an anchored device the action turns it off).
 */
export function deviceActionAllowed(
  ctx: PermissionContext,
  action: DeviceActionKey,
  anchored: boolean,
): boolean {
  switch (action) {
    case 'block':
      return canBlock(ctx);
    case 'unlock':
      return canUnlock(ctx);
    case 'anchor':
      return canAnchor(ctx, anchored ? 'disable' : 'enable');
    case 'commands':
      return canSendCommands(ctx);
    case 'share':
      return !isReadonly(ctx.user, ctx.server) && !isShared(ctx.user) && can(ctx, 'share', 'create');
    case 'history':
    case 'telemetry':
      return !!ctx.user;
    case 'edit':
      return canEditDevices(ctx, 'edit');
    case 'delete':
      return canEditDevices(ctx, 'delete');
  }
}

/** The actions shown on a device's detail, in display order. */
export function deviceActionButtons(ctx: PermissionContext, anchored: boolean): DeviceActionKey[] {
  return DEVICE_ACTIONS.filter((a) => deviceActionAllowed(ctx, a, anchored));
}
