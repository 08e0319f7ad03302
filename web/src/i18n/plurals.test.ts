// Counted texts take the plural rules of the language (issue #29: "1 mensagens enviadas"): i18next's `_one` /
// `_other` keys, in the domain catalogue and in the web's namespaces.
import { describe, expect, it } from 'vitest';
import { createI18n } from './index.ts';

describe('plurals (issue #29)', () => {
  it('direct messages sent: one and many in the three languages', () => {
    const pt = createI18n('pt-BR');
    expect(pt.t('messages.allSent', { count: 1 })).toBe('1 mensagem enviada');
    expect(pt.t('messages.allSent', { count: 2 })).toBe('2 mensagens enviadas');
    expect(createI18n('es').t('messages.allSent', { count: 1 })).toBe('1 mensaje enviado');
    expect(createI18n('es').t('messages.allSent', { count: 3 })).toBe('3 mensajes enviados');
    expect(createI18n('en-US').t('messages.allSent', { count: 1 })).toBe('1 message sent');
    expect(createI18n('en-US').t('messages.allSent', { count: 0 })).toBe('0 messages sent');
  });

  it('counted texts of the screens', () => {
    const pt = createI18n('pt-BR');
    expect(pt.t('autolink:seen', { count: 1, time: 'x' })).toContain('(1 mensagem,');
    expect(pt.t('autolink:seen', { count: 5, time: 'x' })).toContain('(5 mensagens,');
    expect(pt.t('history:summary', { count: 1, distance: 'd', maxSpeed: 's' })).toMatch(/^1 ponto ·/);
    expect(pt.t('history:summary', { count: 2, distance: 'd', maxSpeed: 's' })).toMatch(/^2 pontos ·/);
    expect(pt.t('telemetry:stats', { count: 1, min: 1, max: 1, unit: '' })).toMatch(/^1 leitura ·/);
    expect(createI18n('en-US').t('history:summary', { count: 1, distance: 'd', maxSpeed: 's' })).toMatch(
      /^1 point ·/,
    );
  });
});
