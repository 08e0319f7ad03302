// SPEC §5 rules the server enforces with the web's own domain functions: notification rules (POST/PUT
// /api/notifications: notificationRuleProblem = the rule form's schema) and direct messages
// (POST /api/notifications/send/:notificator: availableChannels, checkChannelMessage), with the SPEC numbers at
// the boundaries. Bad input is 400 with the translated text, a channel the sender may not use is 403.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, type MessageKey } from '@rastro/domain';
import { getLiveServices } from '../../src/live/index.ts';
import type { Notificator, NotificationMessage } from '../../src/live/notificators/types.ts';
import { createObject, createUser, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

function call(cookie: string, method: 'POST' | 'PUT', url: string, body: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, 'accept-language': 'en-US' },
    payload: body as object,
  });
}

function bad(res: LightMyRequestResponse, key: MessageKey, values: Record<string, string | number> = {}) {
  expect(res.statusCode).toBe(400);
  expect(res.body).toBe(`IllegalArgumentException: ${formatMessage(key, 'en-US', values)}`);
}

describe('notification rules (POST/PUT /api/notifications)', () => {
  const rule = (fields: Record<string, unknown>) => ({
    type: 'alarm',
    notificators: 'web',
    attributes: { alarms: 'sos' },
    ...fields,
  });

  it('channels are required', async () => {
    bad(
      await call(t.admin, 'POST', '/api/notifications', rule({ notificators: '' })),
      'validation.channelsRequired',
    );
  });

  it('an alarm rule needs its alarms; other types do not', async () => {
    bad(
      await call(t.admin, 'POST', '/api/notifications', rule({ attributes: {} })),
      'validation.alarmsRequired',
    );
    const ok = await call(
      t.admin,
      'POST',
      '/api/notifications',
      rule({ type: 'deviceOnline', attributes: {} }),
    );
    expect(ok.statusCode).toBe(200);
  });

  it('the command channel needs a saved command', async () => {
    bad(
      await call(t.admin, 'POST', '/api/notifications', rule({ notificators: 'web,command', commandId: 0 })),
      'validation.commandRequired',
    );
  });

  it('an edit is checked the same way, in the caller’s language', async () => {
    const n = await createObject(t, 'notifications', rule({}));
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/notifications/${n.id}`,
      headers: { cookie: t.admin, 'accept-language': 'es' },
      payload: { ...n, attributes: {} },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(`IllegalArgumentException: ${formatMessage('validation.alarmsRequired', 'es')}`);
    const ok = await call(t.admin, 'PUT', `/api/notifications/${n.id}`, { ...n, notificators: 'web,mail' });
    expect(ok.statusCode).toBe(200);
  });
});

describe('direct messages (POST /api/notifications/send/:notificator)', () => {
  const sent: Record<string, Array<{ userId: number; message: NotificationMessage }>> = {};
  const fake = (type: string): Notificator => {
    sent[type] = [];
    return {
      type,
      configured: () => true,
      async send(user, message) {
        sent[type].push({ userId: user.id, message });
      },
    };
  };
  let recipient: { id: number };
  let bare: { id: number };
  let manager: { id: number; cookie: string };
  let managed: { id: number };

  beforeAll(async () => {
    const notifier = getLiveServices(t.ctx).notifier;
    for (const type of ['sms', 'mail', 'telegram', 'firebase', 'web']) notifier.setNotificator(fake(type));
    recipient = await createUser(t, {
      phone: '+55 11 99999-0000',
      attributes: { telegramChatId: '77', notificationTokens: 'tok' },
    });
    bare = await createUser(t);
    manager = await createUser(t, { userLimit: 5 });
    managed = await createUser(
      t,
      { phone: '+55 11 98888-0000', attributes: { telegramChatId: '78' } },
      manager.cookie,
    );
  });

  const send = (cookie: string, channel: string, body: Record<string, unknown>, userId?: number) =>
    call(cookie, 'POST', `/api/notifications/send/${channel}${userId ? `?userId=${userId}` : ''}`, body);

  it('SMS body: 160 characters sent, 161 refused', async () => {
    expect((await send(t.admin, 'sms', { body: 'a'.repeat(160) }, recipient.id)).statusCode).toBe(204);
    bad(await send(t.admin, 'sms', { body: 'a'.repeat(161) }, recipient.id), 'validation.bodyTooLong', {
      channel: 'sms',
      max: 160,
    });
  });

  it('body limits: telegram 1000, push 500, web 500, mail 5000', async () => {
    for (const [channel, max] of [
      ['telegram', 1000],
      ['firebase', 500],
      ['web', 500],
      ['mail', 5000],
    ] as const) {
      const ok = await send(t.admin, channel, { subject: 'Hello', body: 'b'.repeat(max) }, recipient.id);
      expect(ok.statusCode, channel).toBe(204);
    }
    for (const [channel, max] of [
      ['telegram', 1000],
      ['firebase', 500],
      ['web', 500],
      ['mail', 5000],
    ] as const) {
      bad(
        await send(t.admin, channel, { subject: 'Hello', body: 'b'.repeat(max + 1) }, recipient.id),
        'validation.bodyTooLong',
        { channel, max },
      );
    }
  });

  it('subject: 100 characters sent, 101 refused; required for push, web and mail', async () => {
    expect(
      (await send(t.admin, 'web', { subject: 's'.repeat(100), body: 'Body' }, recipient.id)).statusCode,
    ).toBe(204);
    bad(
      await send(t.admin, 'web', { subject: 's'.repeat(101), body: 'Body' }, recipient.id),
      'validation.subjectTooLong',
      { max: 100 },
    );
    for (const channel of ['firebase', 'web', 'mail']) {
      bad(await send(t.admin, channel, { body: 'Body' }, recipient.id), 'validation.subjectRequired');
    }
    expect((await send(t.admin, 'telegram', { body: 'Body' }, recipient.id)).statusCode).toBe(204);
  });

  it('a channel needs the recipient’s field: phone, chat id, tokens, e-mail; web always', async () => {
    for (const channel of ['sms', 'telegram', 'firebase']) {
      bad(
        await send(t.admin, channel, { subject: 'S', body: 'Body' }, bare.id),
        'validation.channelNotAvailable',
      );
    }
    expect((await send(t.admin, 'web', { subject: 'S', body: 'Body' }, bare.id)).statusCode).toBe(204);
    expect((await send(t.admin, 'mail', { subject: 'S', body: 'Body' }, bare.id)).statusCode).toBe(204);
  });

  it('SMS and mail are administrators’ channels: a manager is refused (403)', async () => {
    for (const channel of ['sms', 'mail']) {
      const res = await send(manager.cookie, channel, { subject: 'S', body: 'Body' }, managed.id);
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe(`SecurityException: ${formatMessage('validation.channelNotAvailable', 'en-US')}`);
    }
    sent.telegram.length = 0;
    expectStatus(await send(manager.cookie, 'telegram', { body: 'Body' }, managed.id), 204);
    expect(sent.telegram.map((s) => s.userId)).toEqual([managed.id]);
  });

  it('the command notificator sends no messages', async () => {
    bad(await send(t.admin, 'command', { body: 'Body' }, recipient.id), 'validation.channelNotAvailable');
  });
});
