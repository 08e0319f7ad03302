// SPEC §3/§7/§8 command payloads for the safety actions and the toasts of their answers.
import type { MessageKey } from './messages.ts';
import type { Attributes, Command } from './types.ts';

export const SAFETY_COMMANDS = {
  block: 'engineStop',
  unlock: 'engineResume',
  anchorEnable: 'anchor_enable',
  anchorDisable: 'anchor_disable',
} as const;

/** POST /commands/send body: id 0, description, deviceId, type (custom by default), textChannel false. */
export function buildCommand(
  deviceId: number,
  type: string = 'custom',
  attributes: Attributes = {},
  description: string | null = null,
): Command {
  return { id: 0, description, deviceId, type, textChannel: false, attributes };
}

/** Custom command with a raw data string. */
export function customCommand(deviceId: number, data: string, description: string | null = null): Command {
  return buildCommand(deviceId, 'custom', { data }, description);
}

/** HTTP 202 means the command was queued until the device is online (shown as pending). */
export function isQueued(status: number): boolean {
  return status === 202;
}

export type SafetyAction = 'block' | 'unlock' | 'anchor' | 'delete';

/** Toast key of an action's answer (anchor success depends on the mode). */
export function actionToastKey(
  action: SafetyAction,
  ok: boolean,
  opts: { status?: number; anchorMode?: 'enable' | 'disable' } = {},
): MessageKey {
  if (!ok) {
    if (action === 'anchor') return 'actions.anchorError';
    if (action === 'delete') return 'actions.deleteError';
    return 'actions.commandError';
  }
  if (opts.status !== undefined && isQueued(opts.status) && (action === 'block' || action === 'unlock')) {
    return 'actions.commandPending';
  }
  if (action === 'block') return 'actions.blockSent';
  if (action === 'unlock') return 'actions.unlockSent';
  if (action === 'delete') return 'actions.deviceDeleted';
  return opts.anchorMode === 'disable' ? 'actions.anchorDisabled' : 'actions.anchorEnabled';
}

/**
 * The text of a server refusal (403 `SecurityException: <text>`, already in the caller's language), to show as
 * is, e.g. the engine-block interlock's "moving at 30 km/h" refusal; null for any other answer.
 */
export function refusalText(status: number, body: string): string | null {
  if (status !== 403) return null;
  const line = (body.split(/\r?\n/)[0] ?? '').replace(/^(?:[\w.$]*Exception:\s*)+/, '').trim();
  return line || null;
}
