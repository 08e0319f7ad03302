import { describe, expect, it } from 'vitest';
import {
  MESSAGE_KEYS,
  MESSAGE_LOCALES,
  defaultMessages,
  formatMessage,
  isMessageKey,
  nestMessages,
} from '../src/messages.ts';

describe('messages catalogue', () => {
  it('has wording for every key in pt-BR, es and en-US', () => {
    for (const l of MESSAGE_LOCALES) {
      expect(Object.keys(defaultMessages[l]).sort()).toEqual([...MESSAGE_KEYS].sort());
      for (const k of MESSAGE_KEYS) expect(defaultMessages[l][k].trim(), `${l} ${k}`).not.toBe('');
    }
  });

  it('uses the spec wording verbatim', () => {
    expect(defaultMessages['en-US']['validation.deviceNameRequired']).toBe(
      'please enter a name for the device',
    );
    expect(defaultMessages['en-US']['validation.deviceUniqueIdRequired']).toBe(
      'please enter the device unique identifier',
    );
    expect(defaultMessages['en-US']['validation.geofenceNameRequired']).toBe('the name field is required');
    expect(defaultMessages['pt-BR']['validation.channelRequired']).toBe('Selecione pelo menos um canal');
    expect(defaultMessages['es']['route.noData']).toBe(
      'No se encontraron datos para el período seleccionado',
    );
    expect(defaultMessages['es']['route.badFormat']).toBe('Error en el formato de respuesta del servidor');
    expect(defaultMessages['es']['actions.commandError']).toBe('Error al enviar comando');
    expect(defaultMessages['es']['actions.anchorError']).toBe('Error al ejecutar anchor');
    expect(defaultMessages['es']['actions.deleteError']).toBe('Error al eliminar dispositivo');
    expect(defaultMessages['es']['actions.blockSent']).toBe('Comando de bloqueo enviado');
    expect(defaultMessages['es']['actions.unlockSent']).toBe('Comando de desbloqueo enviado');
    expect(defaultMessages['pt-BR']['session.expired']).toBe('Sua sessão expirou!');
    expect(defaultMessages['pt-BR']['session.attention']).toBe('Atenção');
    expect(defaultMessages['pt-BR']['session.leave']).toBe('Sair');
    expect(defaultMessages['pt-BR']['actions.cancelledByUser']).toBe('Ação cancelada pelo usuário');
  });

  it('no key is the prefix of another (nesting stays lossless)', () => {
    const keys = new Set<string>(MESSAGE_KEYS);
    for (const k of MESSAGE_KEYS) {
      const parts = k.split('.');
      for (let i = 1; i < parts.length; i++) expect(keys.has(parts.slice(0, i).join('.')), k).toBe(false);
    }
    const nested = nestMessages(defaultMessages['en-US']);
    expect((nested.validation as Record<string, string>).deviceNameRequired).toBe(
      'please enter a name for the device',
    );
  });

  it('interpolates and nests', () => {
    expect(formatMessage('validation.bodyTooLong', 'en-US', { channel: 'sms', max: 160 })).toBe(
      'The message for sms may have at most 160 characters',
    );
    expect(formatMessage('actions.anchorEnableConfirm', 'en-US', { name: 'X' })).toBe(
      'Do you really want to enable the anchor for vehicle X?',
    );
    expect(formatMessage('validation.subjectTooLong', 'en-US')).toContain('{{max}}');
    expect(nestMessages({ 'a.b': 'x', 'a.c': 'y', d: 'z' })).toEqual({ a: { b: 'x', c: 'y' }, d: 'z' });
    expect(isMessageKey('validation.required')).toBe(true);
    expect(isMessageKey('nope')).toBe(false);
  });
});
