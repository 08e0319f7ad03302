import { describe, expect, it } from 'vitest';
import {
  availableChannels,
  checkChannelMessage,
  directMessageProblem,
  purgeSentMessages,
  SENT_MESSAGE_RETENTION_MS,
  summarizeSendResults,
} from '../src/directMessage.ts';

describe('direct message channels', () => {
  const full = {
    email: 'a@b.c',
    phone: '+5511',
    attributes: { telegramChatId: '123', notificationTokens: 'tok' },
  };
  it('offers channels by recipient fields; sms and mail only to admins; web always', () => {
    expect(availableChannels(full, true)).toEqual(['web', 'firebase', 'telegram', 'sms', 'mail']);
    expect(availableChannels(full, false)).toEqual(['web', 'firebase', 'telegram']);
    expect(availableChannels({ attributes: {} }, true)).toEqual(['web']);
    expect(availableChannels({ email: 'a@b.c', phone: '', attributes: {} }, true)).toEqual(['web', 'mail']);
  });

  it('checks one channel like the message service', () => {
    expect(checkChannelMessage('sms', '', 'x'.repeat(160))).toBeNull();
    expect(checkChannelMessage('sms', '', 'x'.repeat(161))).toEqual({
      key: 'validation.bodyTooLong',
      channel: 'sms',
      max: 160,
    });
    expect(checkChannelMessage('mail', '', 'hi')).toEqual({
      key: 'validation.subjectRequired',
      channel: 'mail',
    });
    expect(checkChannelMessage('web', 's', ' ')).toEqual({ key: 'validation.bodyRequired', channel: 'web' });
    expect(checkChannelMessage('web', 's'.repeat(101), 'b')).toMatchObject({
      key: 'validation.subjectTooLong',
      max: 100,
    });
    expect(checkChannelMessage('pigeon', 's', 'b')).toEqual({ key: 'validation.channelNotAvailable' });
  });

  it('summarises results: all ok success, mixed warning, none error', () => {
    const ok = { success: true, channel: 'web' };
    const ko = { success: false, channel: 'sms' };
    expect(summarizeSendResults([ok, ok])).toEqual({
      outcome: 'success',
      key: 'messages.allSent',
      sent: 2,
      total: 2,
    });
    expect(summarizeSendResults([ok, ko])).toMatchObject({ outcome: 'warning', sent: 1, total: 2 });
    expect(summarizeSendResults([ko])).toMatchObject({ outcome: 'error' });
    expect(summarizeSendResults([])).toMatchObject({ outcome: 'error' });
  });
});

describe('direct message over several channels and the 5-minute store (SPEC §5, §9)', () => {
  it('needs a channel, then checks each chosen channel in sending order', () => {
    expect(directMessageProblem([], 's', 'b')?.key).toBe('validation.channelRequired');
    expect(directMessageProblem(['fax'], 's', 'b')?.key).toBe('validation.channelNotAvailable');
    expect(directMessageProblem(['sms', 'web'], '', 'b')).toEqual({
      key: 'validation.subjectRequired',
      channel: 'web',
    });
    expect(directMessageProblem(['sms'], '', 'x'.repeat(160))).toBeNull();
    expect(directMessageProblem(['mail', 'sms'], 'Oi', 'x'.repeat(161))).toEqual({
      key: 'validation.bodyTooLong',
      channel: 'sms',
      max: 160,
    });
    expect(directMessageProblem(['web'], 'x'.repeat(101), 'b')?.key).toBe('validation.subjectTooLong');
  });

  it('keeps results for 300000 ms', () => {
    const now = 1_000_000;
    const kept = purgeSentMessages(
      [
        { at: now - 299_999, id: 'a' },
        { at: now - 300_000, id: 'b' },
        { at: now, id: 'c' },
      ],
      now,
    );
    expect(kept.map((r) => r.id)).toEqual(['a', 'c']);
    expect(SENT_MESSAGE_RETENTION_MS).toBe(300_000);
  });
});
