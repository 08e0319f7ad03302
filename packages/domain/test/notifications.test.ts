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
  NOTIFICATION_COLOR_STYLES,
  SOUND_CHOICES,
  emptyRuleForm,
  linkChanges,
  parseRuleForm,
  ruleDeviceHint,
  ruleToForm,
  type NotificationRuleForm,
} from '../src/notifications.ts';
import type { Notification } from '../src/types.ts';

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

describe('the rule editor form (SPEC §5 Notification)', () => {
  const alarmRule = (): NotificationRuleForm => ({ ...emptyRuleForm(), alarms: ['sos'] });
  const errors = (form: NotificationRuleForm, opts?: Parameters<typeof parseRuleForm>[1]) => {
    const r = parseRuleForm(form, opts);
    return r.ok ? {} : r.errors;
  };

  it('starts as a web alarm rule for all devices with the SPEC §9 defaults', () => {
    expect(emptyRuleForm()).toMatchObject({
      type: 'alarm',
      notificators: ['web'],
      always: true,
      color: 'soft-info',
      sound: 'audio1',
      pin: false,
      position: 'bottom-right',
    });
    expect(emptyRuleForm('events')).toMatchObject({ type: '', always: false, deviceIds: [], calendarId: 0 });
    expect(SOUND_CHOICES).toHaveLength(26);
    expect(SOUND_CHOICES.slice(-2)).toEqual(['custom', 'mute']);
    expect(Object.keys(NOTIFICATION_COLOR_STYLES)).toEqual([...NOTIFICATION_COLORS]);
  });

  it('missing type and missing channel give the SPEC messages', () => {
    expect(errors({ ...alarmRule(), type: '', notificators: [] })).toEqual({
      type: 'validation.typeRequired',
      notificators: 'validation.channelsRequired',
    });
    expect(errors({ ...alarmRule(), type: 'noSuchType' })).toEqual({ type: 'validation.typeRequired' });
  });

  it('an alarm rule needs at least one alarm', () => {
    expect(errors({ ...alarmRule(), alarms: [] })).toEqual({ alarms: 'validation.alarmsRequired' });
    expect(errors({ ...alarmRule(), type: 'ignitionOn', alarms: [] })).toEqual({});
  });

  it('the events variant also needs devices and a calendar', () => {
    const form = { ...emptyRuleForm('events'), type: 'ignitionOn' };
    expect(errors(form, { variant: 'events' })).toEqual({
      deviceIds: 'validation.devicesRequired',
      calendarId: 'validation.calendarRequired',
    });
    expect(errors({ ...form, deviceIds: [4], calendarId: 2 }, { variant: 'events' })).toEqual({});
    // the notifications variant asks for neither
    expect(errors(form)).toEqual({});
  });

  it('the command channel needs a saved command; a custom sound needs a URL', () => {
    expect(errors({ ...alarmRule(), notificators: ['web', 'command'] })).toEqual({
      commandId: 'notifications:validation.commandRequired',
    });
    expect(errors({ ...alarmRule(), sound: 'custom', soundURL: 'javascript:alert(1)' })).toEqual({
      soundURL: 'notifications:validation.soundUrl',
    });
    expect(errors({ ...alarmRule(), sound: 'audio25' })).toEqual({ sound: 'validation.invalidOption' });
    expect(errors({ ...alarmRule(), notificators: ['pigeon'] })).toEqual({
      'notificators.0': 'validation.invalidOption',
    });
    // channels offered by the server (e.g. telegram, whatsapp) are accepted when listed
    expect(errors({ ...alarmRule(), notificators: ['whatsapp'] }, { channels: ['web', 'whatsapp'] })).toEqual(
      {},
    );
  });

  it('builds the Traccar Notification: comma lists and {ns} attributes', () => {
    const r = parseRuleForm({
      ...alarmRule(),
      alarms: ['sos', 'powerCut', 'sos'],
      notificators: ['web', 'mail', 'command'],
      commandId: 9,
      color: 'red',
      sound: 'audio5',
      pin: true,
      position: 'top-left',
      description: '  Pânico ',
      extra: { priority: true },
    });
    expect(r).toEqual({
      ok: true,
      deviceIds: [],
      rule: {
        id: 0,
        type: 'alarm',
        description: 'Pânico',
        notificators: 'web,mail,command',
        always: true,
        calendarId: 0,
        commandId: 9,
        attributes: {
          priority: true,
          alarms: 'sos,powerCut',
          'rastro.color': 'red',
          'rastro.sound': 'audio5',
          'rastro.pin': true,
          'rastro.position': 'top-left',
        },
      },
    });
    const custom = parseRuleForm(
      { ...alarmRule(), sound: 'custom', soundURL: 'https://cdn.example/bell.mp3', notificators: ['web'] },
      { ns: 'x' },
    );
    expect(custom.ok && custom.rule.attributes).toMatchObject({
      'x.sound': 'custom',
      'x.soundURL': 'https://cdn.example/bell.mp3',
    });
    // a non-command rule drops a stale command id
    const noCmd = parseRuleForm({ ...alarmRule(), commandId: 9 });
    expect(noCmd.ok && noCmd.rule.commandId).toBe(0);
  });

  it('the events variant is never "all devices" and remembers its devices', () => {
    const r = parseRuleForm(
      {
        ...emptyRuleForm('events'),
        type: 'deviceOffline',
        always: true,
        deviceIds: [3, 7, 3],
        calendarId: 2,
      },
      { variant: 'events' },
    );
    expect(r.ok && r.rule).toMatchObject({
      always: false,
      calendarId: 2,
      attributes: { 'rastro.devices': '3,7' },
    });
    expect(r.ok && r.deviceIds).toEqual([3, 7]);
  });

  it('reads a stored rule back (round trip) and keeps attributes it does not manage', () => {
    const stored: Notification = {
      id: 5,
      type: 'alarm',
      description: null,
      notificators: 'web,mail',
      always: false,
      calendarId: 2,
      commandId: 0,
      attributes: {
        alarms: 'sos,tow',
        geofenceIds: '4',
        'rastro.color': 'red',
        'rastro.sound': 'audio5',
        'rastro.pin': 'true',
        'rastro.position': 'top-right',
        'rastro.devices': '3,7',
      },
    };
    const form = ruleToForm(stored, 'rastro', [3]);
    expect(form).toMatchObject({
      id: 5,
      notificators: ['web', 'mail'],
      alarms: ['sos', 'tow'],
      color: 'red',
      sound: 'audio5',
      pin: true,
      position: 'top-right',
      deviceIds: [3],
      extra: { geofenceIds: '4', 'rastro.devices': '3,7' },
    });
    expect(ruleDeviceHint(stored.attributes)).toEqual([3, 7]);
    const again = parseRuleForm(form);
    expect(again.ok && again.rule.attributes).toEqual({ ...stored.attributes, 'rastro.pin': true });
    expect(ruleToForm({ ...stored, attributes: { 'rastro.sound': 'mute' } }).sound).toBe('mute');
    expect(
      ruleToForm({ ...stored, attributes: { 'rastro.sound': 'custom', 'rastro.soundURL': '/s/a.wav' } }),
    ).toMatchObject({ sound: 'custom', soundURL: '/s/a.wav' });
  });

  it('link changes: devices to link and to unlink', () => {
    expect(linkChanges([1, 2, 3], [2, 3, 4])).toEqual({ add: [4], remove: [1] });
    expect(linkChanges([], [5])).toEqual({ add: [5], remove: [] });
  });
});
