// Which device actions each kind of user sees, in which device state (SPEC §4, §6; issues #5, #33).
import { describe, expect, it } from 'vitest';
import { permissionIndex, permissionStringFromBits, type PermissionContext } from '../src/permissions.ts';
import {
  DEVICE_ACTIONS,
  deviceActionAllowed,
  deviceActionButtons,
  deviceActionState,
  type DeviceActionState,
} from '../src/deviceActions.ts';
import type { Position } from '../src/types.ts';

const ctx = (user: PermissionContext['user'], extra: Partial<PermissionContext> = {}): PermissionContext => ({
  user,
  server: { attributes: {} },
  isPlus: false,
  ns: 'rastro',
  ...extra,
});
const free: DeviceActionState = { anchored: false, blocked: false };
const anchoredState: DeviceActionState = { anchored: true, blocked: false };
const keys = (c: PermissionContext, state = free) => deviceActionButtons(c, state).map((b) => b.key);

describe('deviceActionButtons', () => {
  it('an administrator sees every action', () => {
    expect(keys(ctx({ administrator: true }))).toEqual([...DEVICE_ACTIONS]);
  });

  it('readonly hides block, unlock, anchor, commands, share, edit and delete', () => {
    expect(keys(ctx({ readonly: true }))).toEqual(['history', 'telemetry']);
  });

  it('limitCommands hides block, unlock and commands only', () => {
    expect(keys(ctx({ limitCommands: true }))).toEqual([
      'anchor',
      'share',
      'history',
      'telemetry',
      'edit',
      'delete',
    ]);
  });

  it('disableReports hides the telemetry chart (its period of positions is refused) and the history', () => {
    const shown = keys(ctx({ disableReports: true }));
    expect(shown).not.toContain('telemetry');
    expect(shown).not.toContain('history');
    expect(shown).toContain('edit');
  });

  it('deviceReadonly hides edit and delete', () => {
    const shown = keys(ctx({ deviceReadonly: true }));
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
    expect(keys(ctx(user, plus))).toEqual(['unlock', 'telemetry', 'edit']);
    expect(keys(ctx(user, plus), anchoredState)).toEqual(['unlock', 'anchor', 'telemetry', 'edit']);
  });

  it('one rule for the buttons and the dialog: block and unlock are closed to a readonly account', () => {
    for (const action of ['block', 'unlock', 'commands'] as const) {
      expect(deviceActionAllowed(ctx({ readonly: true }), action, free)).toBe(false);
      expect(
        deviceActionAllowed(
          ctx({ readonly: true }, { server: { attributes: {}, readonly: true } }),
          action,
          free,
        ),
      ).toBe(false);
      expect(deviceActionAllowed(ctx({}), action, free)).toBe(true);
    }
  });

  it('the anchor direction follows the device state', () => {
    const bits = [permissionIndex('anchor', 'lock')!];
    const user = { attributes: { 'rastro.advancedPerms': permissionStringFromBits(bits) } };
    const plus = { isPlus: true, server: { attributes: { 'rastro.enableAdvancedPerms': true } } };
    expect(deviceActionAllowed(ctx(user, plus), 'anchor', free)).toBe(true);
    expect(deviceActionAllowed(ctx(user, plus), 'anchor', anchoredState)).toBe(false);
  });

  it('the block state marks the block button in force and still offers both block and unlock', () => {
    const blocked = deviceActionState(false, { attributes: { blocked: true } } as unknown as Position);
    expect(blocked).toEqual({ anchored: false, blocked: true });
    const buttons = deviceActionButtons(ctx({}), blocked);
    expect(buttons.filter((b) => b.active).map((b) => b.key)).toEqual(['block']);
    expect(buttons.map((b) => b.key)).toContain('unlock');
    expect(deviceActionAllowed(ctx({}), 'block', blocked)).toBe(true);
    // no position yet, or one that does not say: not blocked
    expect(deviceActionState(true, undefined)).toEqual({ anchored: true, blocked: false });
    expect(
      deviceActionButtons(ctx({}), anchoredState)
        .filter((b) => b.active)
        .map((b) => b.key),
    ).toEqual(['anchor']);
  });

  it('the monitoring panel and the dialog ask the same rule for block: limitCommands and readonly close it', () => {
    for (const user of [{ limitCommands: true }, { readonly: true }])
      for (const state of [free, { anchored: false, blocked: true }])
        expect(deviceActionAllowed(ctx(user), 'block', state)).toBe(false);
    expect(deviceActionAllowed(ctx(null), 'block', free)).toBe(false);
  });
});
