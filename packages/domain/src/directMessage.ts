// SPEC §5 / §7 / §9 direct (custom) messages to one user: which channels are offered, limits, checks, results.
import { attrPresent } from './attributes.ts';
import { SUBJECT_MAX } from './constants.ts';
import type { MessageKey } from './messages.ts';
import type { Attributes } from './types.ts';

/** Channels by notificator name (push = firebase). Sent one after another in this order. */
export const MESSAGE_CHANNELS = ['web', 'firebase', 'telegram', 'sms', 'mail'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export const BODY_LIMITS: Readonly<Record<MessageChannel, number>> = {
  sms: 160,
  telegram: 1000,
  firebase: 500,
  web: 500,
  mail: 5000,
};

/** Channels that need a subject (push, web, mail). */
export const SUBJECT_CHANNELS: readonly MessageChannel[] = ['firebase', 'web', 'mail'];

export interface Recipient {
  email?: string | null;
  phone?: string | null;
  attributes?: Attributes | null;
}

/**
 * Offered channels: web always; sms if the recipient has a phone; telegram with a telegramChatId; push with
 * notificationTokens; mail with an e-mail. SMS and mail only when the sender is an administrator.
 */
export function availableChannels(recipient: Recipient, senderIsAdmin: boolean): MessageChannel[] {
  const has = (v: unknown) => attrPresent(v);
  const ok: Record<MessageChannel, boolean> = {
    web: true,
    firebase: has(recipient.attributes?.notificationTokens),
    telegram: has(recipient.attributes?.telegramChatId),
    sms: senderIsAdmin && has(recipient.phone),
    mail: senderIsAdmin && has(recipient.email),
  };
  return MESSAGE_CHANNELS.filter((c) => ok[c]);
}

export interface ChannelProblem {
  key: MessageKey;
  channel?: MessageChannel;
  max?: number;
}

/** Per-channel check used by the form and by the server's message service; null when sendable. */
export function checkChannelMessage(channel: string, subject: string, body: string): ChannelProblem | null {
  if (!(MESSAGE_CHANNELS as readonly string[]).includes(channel))
    return { key: 'validation.channelNotAvailable' };
  const c = channel as MessageChannel;
  if (body.trim() === '') return { key: 'validation.bodyRequired', channel: c };
  if (SUBJECT_CHANNELS.includes(c) && subject.trim() === '')
    return { key: 'validation.subjectRequired', channel: c };
  if (subject.length > SUBJECT_MAX) return { key: 'validation.subjectTooLong', channel: c, max: SUBJECT_MAX };
  if (body.length > BODY_LIMITS[c]) return { key: 'validation.bodyTooLong', channel: c, max: BODY_LIMITS[c] };
  return null;
}

export interface SendResult {
  success: boolean;
  message?: string;
  channel: string;
  subject?: string;
  body?: string;
}

export type SendOutcome = 'success' | 'warning' | 'error';

/** All succeeded ⇒ success toast with the count; mixed ⇒ warning; all failed (or none) ⇒ error. */
export function summarizeSendResults(results: readonly SendResult[]): {
  outcome: SendOutcome;
  key: MessageKey;
  sent: number;
  total: number;
} {
  const sent = results.filter((r) => r.success).length;
  const total = results.length;
  if (total > 0 && sent === total) return { outcome: 'success', key: 'messages.allSent', sent, total };
  if (sent > 0) return { outcome: 'warning', key: 'messages.partiallySent', sent, total };
  return { outcome: 'error', key: 'messages.noneSent', sent, total };
}

/** SPEC §7/§9: sent custom messages are kept (shown again in the dialog) for 300000 ms, then purged. */
export const SENT_MESSAGE_RETENTION_MS = 300_000;

/** A sent message's result with when it was sent and to whom. */
export interface StoredSendResult extends SendResult {
  at: number;
  userId: number;
}

/** The results younger than SENT_MESSAGE_RETENTION_MS at `now` (older ones are purged). */
export function purgeSentMessages<T extends { at: number }>(stored: readonly T[], now: number): T[] {
  return stored.filter((r) => now - r.at < SENT_MESSAGE_RETENTION_MS && r.at <= now);
}

/** The first problem of a direct message over the chosen channels, in the order they are sent; null when fine. */
export function directMessageProblem(
  channels: readonly string[],
  subject: string,
  body: string,
): ChannelProblem | null {
  if (channels.length === 0) return { key: 'validation.channelRequired' };
  const ordered = MESSAGE_CHANNELS.filter((c) => channels.includes(c));
  if (ordered.length !== channels.length) return { key: 'validation.channelNotAvailable' };
  for (const c of ordered) {
    const p = checkChannelMessage(c, subject, body);
    if (p) return p;
  }
  return null;
}
