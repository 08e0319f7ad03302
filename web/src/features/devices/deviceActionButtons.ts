// Which device actions a user sees on the device detail (SPEC §6; issue #5, owned by ACTIONS).
import {
  can,
  canAnchor,
  canBlock,
  canEditDevices,
  canSendCommands,
  canUnlock,
  isReadonly,
  isShared,
  type PermissionContext,
} from '@rastro/domain';

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

/** Readonly accounts, limitCommands and denied advanced bits hide the command buttons. */
export function deviceActionButtons(ctx: PermissionContext, anchored: boolean): DeviceActionKey[] {
  const ro = isReadonly(ctx.user, ctx.server);
  const rule: Record<DeviceActionKey, () => boolean> = {
    block: () => !ro && canBlock(ctx),
    unlock: () => !ro && canUnlock(ctx),
    anchor: () => canAnchor(ctx, anchored ? 'disable' : 'enable'),
    commands: () => !ro && canSendCommands(ctx),
    share: () => !ro && !isShared(ctx.user) && can(ctx, 'share', 'create'),
    history: () => !!ctx.user,
    telemetry: () => !!ctx.user,
    edit: () => canEditDevices(ctx, 'edit'),
    delete: () => canEditDevices(ctx, 'delete'),
  };
  return DEVICE_ACTIONS.filter((k) => rule[k]());
}
