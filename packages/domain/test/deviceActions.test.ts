// Which device actions each kind of user sees (SPEC §6; issue #5).
import { describe, expect, it } from 'vitest';
import { permissionIndex, permissionStringFromBits, type PermissionContext } from '../src/permissions.ts';
import { DEVICE_ACTIONS, deviceActionAllowed, deviceActionButtons } from '../src/deviceActions.ts';

const ctx = (user: PermissionContext['user'], extra: Partial<PermissionContext> = {}): PermissionContext => ({
  user,
  server: { attributes: {} },
  isPlus: false,
  ns: 'rastro',
  ...extra,
});

describe('deviceActionButtons', () => {
  it('an administrator sees every action', () => {
    expect(deviceActionButtons(ctx({ administrator: true }), false)).toEqual([...DEVICE_ACTIONS]);
  });

  it('readonly hides block, unlock, anchor, commands, share, edit and delete', () => {
    expect(deviceActionButtons(ctx({ readonly: true }), false)).toEqual(['history', 'telemetry']);
  });

  it('limitCommands hides block, unlock and commands only', () => {
    expect(deviceActionButtons(ctx({ limitCommands: true }), false)).toEqual([
      'anchor',
      'share',
      'history',
      'telemetry',
      'edit',
      'delete',
    ]);
  });

  it('deviceReadonly hides edit and delete', () => {
    const shown = deviceActionButtons(ctx({ deviceReadonly: true }), false);
    expect(shown).not.toContain('edit');
    expect(shown).not.toContain('delete');
    expect(shown).toContain('block');
  });

  it('advanced permission bits decide on a Plus server with them enabled', () => {
    const bits = [
      permissionIndex('devices', 'unlock')!,
      permissionIndex('devices', 'edit')!,
      permissionIndex('anchor', 'unlock')!,
    ];
    const user = { attributes: { 'rastro.advancedPerms': permissionStringFromBits(bits) } };
    const plus = { isPlus: true, server: { attributes: { 'rastro.enableAdvancedPerms': true } } };
    // no lock bit: no block; anchor shown only to disable (anchor unlock bit), not to enable; no reports bit: no
    // history (its screen is refused, issue #28)
    expect(deviceActionButtons(ctx(user, plus), false)).toEqual(['unlock', 'telemetry', 'edit']);
    expect(deviceActionButtons(ctx(user, plus), true)).toEqual(['unlock', 'anchor', 'telemetry', 'edit']);
  });

  it('one rule for the buttons and the dialog: block and unlock are closed to a readonly account', () => {
    for (const action of ['block', 'unlock', 'commands'] as const) {
      expect(deviceActionAllowed(ctx({ readonly: true }), action, false)).toBe(false);
      expect(
        deviceActionAllowed(
          ctx({ readonly: true }, { server: { attributes: {}, readonly: true } }),
          action,
          false,
        ),
      ).toBe(false);
      expect(deviceActionAllowed(ctx({}), action, false)).toBe(true);
    }
  });

  it('the anchor direction follows the device state', () => {
    const bits = [permissionIndex('anchor', 'lock')!];
    const user = { attributes: { 'rastro.advancedPerms': permissionStringFromBits(bits) } };
    const plus = { isPlus: true, server: { attributes: { 'rastro.enableAdvancedPerms': true } } };
    expect(deviceActionAllowed(ctx(user, plus), 'anchor', false)).toBe(true);
    expect(deviceActionAllowed(ctx(user, plus), 'anchor', true)).toBe(false);
  });
});
