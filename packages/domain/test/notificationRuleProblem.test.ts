import { describe, expect, it } from 'vitest';
import { notificationRuleProblem } from '../src/notifications.ts';
import type { Notification } from '../src/types.ts';

const rule = (fields: Partial<Notification>): Notification => ({
  id: 0,
  type: 'alarm',
  description: null,
  calendarId: 0,
  always: false,
  commandId: 0,
  notificators: 'web',
  attributes: { alarms: 'sos' },
  ...fields,
});

describe('notificationRuleProblem (the rule form schema on an API body)', () => {
  it('accepts a complete rule and any event type the server knows', () => {
    expect(notificationRuleProblem(rule({}))).toBeNull();
    expect(notificationRuleProblem(rule({ type: 'media', attributes: {} }))).toBeNull();
  });

  it('channels, alarms of an alarm rule and the command of the command channel are required', () => {
    expect(notificationRuleProblem(rule({ notificators: '' }))).toEqual({
      field: 'notificators',
      key: 'validation.channelsRequired',
    });
    expect(notificationRuleProblem(rule({ attributes: {} }))).toEqual({
      field: 'alarms',
      key: 'validation.alarmsRequired',
    });
    expect(notificationRuleProblem(rule({ notificators: 'web,command' }))?.key).toBe(
      'notifications:validation.commandRequired',
    );
    expect(notificationRuleProblem(rule({ type: '' }))?.key).toBe('validation.typeRequired');
  });
});
