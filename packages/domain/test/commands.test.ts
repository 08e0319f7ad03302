import { describe, expect, it } from 'vitest';
import {
  SAFETY_COMMANDS,
  actionToastKey,
  buildCommand,
  customCommand,
  isQueued,
  refusalText,
} from '../src/commands.ts';
import { defaultMessages } from '../src/messages.ts';

describe('commands', () => {
  it('payload: id 0, textChannel false, type custom by default', () => {
    expect(buildCommand(5)).toEqual({
      id: 0,
      description: null,
      deviceId: 5,
      type: 'custom',
      textChannel: false,
      attributes: {},
    });
    expect(customCommand(5, 'RELAY,1#')).toMatchObject({ type: 'custom', attributes: { data: 'RELAY,1#' } });
    expect(buildCommand(5, SAFETY_COMMANDS.block).type).toBe('engineStop');
    expect(SAFETY_COMMANDS.unlock).toBe('engineResume');
  });
  it('toasts of SPEC §8', () => {
    const es = (k: Parameters<typeof actionToastKey>) => defaultMessages.es[actionToastKey(...k)];
    expect(es(['block', false])).toBe('Error al enviar comando');
    expect(es(['anchor', false])).toBe('Error al ejecutar anchor');
    expect(es(['delete', false])).toBe('Error al eliminar dispositivo');
    expect(es(['block', true])).toBe('Comando de bloqueo enviado');
    expect(es(['unlock', true])).toBe('Comando de desbloqueo enviado');
    expect(actionToastKey('block', true, { status: 202 })).toBe('actions.commandPending');
    expect(actionToastKey('delete', true)).toBe('actions.deviceDeleted');
    expect(actionToastKey('anchor', true, { anchorMode: 'disable' })).toBe('actions.anchorDisabled');
    expect(actionToastKey('anchor', true)).toBe('actions.anchorEnabled');
    expect(isQueued(202)).toBe(true);
    expect(isQueued(200)).toBe(false);
  });
  it('refusalText: the text of a 403 without the exception prefix, null otherwise', () => {
    expect(
      refusalText(403, 'SecurityException: Engine block refused for T: it is moving at 30 km/h\nat x'),
    ).toBe('Engine block refused for T: it is moving at 30 km/h');
    expect(refusalText(403, 'plain text')).toBe('plain text');
    expect(refusalText(403, 'SecurityException: ')).toBeNull();
    expect(refusalText(400, 'SecurityException: Device access denied')).toBeNull();
  });
});
