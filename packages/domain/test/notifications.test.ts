import { describe, expect, it } from 'vitest';
import {
  ALARM_TYPES,
  BUILTIN_SOUNDS,
  NOTIFICATION_COLORS,
  NOTIFICATION_POSITIONS,
  NOTIFICATION_TYPES,
  SPEC_EVENT_TYPES,
  autoCloseMs,
  formatNotificators,
  parseAlarms,
  parseNotificators,
  resolveNotificationStyle,
  resolveSound,
} from '../src/notifications.ts';

describe('notification constants', () => {
  it('lists colours, positions, sounds, types', () => {
    expect(NOTIFICATION_COLORS).toEqual([
      'soft-red',
      'red',
      'soft-green',
      'green',
      'soft-yellow',
      'yellow',
      'soft-info',
      'info',
    ]);
    expect(NOTIFICATION_POSITIONS).toEqual(['top-right', 'top-left', 'bottom-right', 'bottom-left']);
    expect(BUILTIN_SOUNDS).toHaveLength(24);
    expect(BUILTIN_SOUNDS[0]).toBe('audio1');
    expect(BUILTIN_SOUNDS[23]).toBe('audio24');
    expect(SPEC_EVENT_TYPES).toHaveLength(18);
    expect([...SPEC_EVENT_TYPES].sort()).toEqual([...NOTIFICATION_TYPES].sort());
    expect(ALARM_TYPES).toContain('powerCut');
  });
  it('auto-close 4500 ms, 0 when pinned', () => {
    expect(autoCloseMs(false)).toBe(4500);
    expect(autoCloseMs(true)).toBe(0);
  });
});

describe('resolving a rule', () => {
  it('defaults: bottom-right, width 380, audio1, not pinned', () => {
    expect(resolveNotificationStyle(undefined)).toEqual({
      color: 'soft-info',
      position: 'bottom-right',
      pinned: false,
      autoClose: 4500,
      width: 380,
      sound: { kind: 'builtin', id: 'audio1', url: '/rastro/assets/custom/sounds/audio1.wav' },
    });
  });
  it('reads {ns}.color/.sound/.pin/.position', () => {
    const s = resolveNotificationStyle({
      'rastro.color': 'red',
      'rastro.sound': 'audio24',
      'rastro.pin': 'true',
      'rastro.position': 'top-left',
    });
    expect(s).toMatchObject({ color: 'red', position: 'top-left', pinned: true, autoClose: 0 });
    expect(s.sound).toEqual({
      kind: 'builtin',
      id: 'audio24',
      url: '/rastro/assets/custom/sounds/audio24.wav',
    });
    expect(resolveNotificationStyle({ 'rastro.color': 'purple', 'rastro.position': 'middle' })).toMatchObject(
      {
        color: 'soft-info',
        position: 'bottom-right',
      },
    );
    expect(resolveNotificationStyle({ 'x.color': 'red' }, 'x').color).toBe('red');
    expect(resolveNotificationStyle({}, 'rastro', true).sound).toEqual({ kind: 'mute' });
  });
  it('custom sound URL and mute', () => {
    expect(resolveSound({ 'rastro.sound': 'custom', 'rastro.soundURL': 'https://x/a.mp3' })).toEqual({
      kind: 'custom',
      url: 'https://x/a.mp3',
    });
    expect(
      resolveSound({ 'rastro.sound': 'custom', 'rastro.soundURL': 'javascript:alert(1)' }),
    ).toMatchObject({ id: 'audio1' });
    expect(resolveSound({ 'rastro.sound': 'mute' })).toEqual({ kind: 'mute' });
    expect(resolveSound({ 'rastro.sound': 'audio25' })).toMatchObject({ id: 'audio1' });
  });
  it('parses notificators and alarms', () => {
    expect(parseNotificators('web, mail,,')).toEqual(['web', 'mail']);
    expect(parseNotificators(null)).toEqual([]);
    expect(formatNotificators(['web', 'mail', 'web'])).toBe('web,mail');
    expect(parseAlarms('sos,powerCut')).toEqual(['sos', 'powerCut']);
  });
});
