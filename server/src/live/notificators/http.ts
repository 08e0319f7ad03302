// HTTP channels: an SMS gateway (Traccar's "sms.http" style), Telegram Bot API, Web Push (firebase/push).
import webpush from 'web-push';
import type { NotificatorConfig } from './config.ts';
import { sendSmsApi, type SmsApiSettings } from './smsApi.ts';
import { NotConfigured, fitLength, type Notificator } from './types.ts';

async function post(url: string, body: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(15_000) });
  if (!res.ok)
    throw new Error(`HTTP ${res.status} from ${new URL(url).host}: ${(await res.text()).slice(0, 200)}`);
}

const jsonEscape = (s: string) => JSON.stringify(s).slice(1, -1);

/**
 * The sms channel: the environment's gateway (SMS_HTTP_URL) when set, else the SMS API of the server settings
 * (`serverSms`, read at each send so a change in the Server dialog applies at once; smsApi.ts).
 */
export function smsNotificator(
  cfg: NotificatorConfig,
  serverSms: () => SmsApiSettings | null = () => null,
): Notificator {
  return {
    type: 'sms',
    configured: () => !!cfg.SMS_HTTP_URL || serverSms() !== null,
    async send(user, message) {
      const api = cfg.SMS_HTTP_URL ? null : serverSms();
      if (!cfg.SMS_HTTP_URL && !api) throw new NotConfigured('Notificator sms is not configured');
      if (!user.phone) throw new Error(`User ${user.id} has no phone number`);
      const text = fitLength(message.body, 160);
      if (api) return sendSmsApi(api, user.phone, text);
      const template = cfg.SMS_HTTP_TEMPLATE ?? '{"to":"{phone}","message":"{message}"}';
      const body = template
        .replaceAll('{phone}', jsonEscape(user.phone))
        .replaceAll('{message}', jsonEscape(text));
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (cfg.SMS_HTTP_AUTHORIZATION) headers.authorization = cfg.SMS_HTTP_AUTHORIZATION;
      await post(cfg.SMS_HTTP_URL!, body, headers);
    },
  };
}

export function telegramNotificator(cfg: NotificatorConfig): Notificator {
  return {
    type: 'telegram',
    configured: () => !!cfg.TELEGRAM_BOT_TOKEN,
    async send(_user, message, attrs) {
      if (!cfg.TELEGRAM_BOT_TOKEN) throw new NotConfigured('Notificator telegram is not configured');
      const chatId = attrs.telegramChatId ?? cfg.TELEGRAM_CHAT_ID;
      if (chatId === undefined || chatId === null || chatId === '')
        throw new Error('User has no telegramChatId');
      const base = (cfg.TELEGRAM_API_URL ?? 'https://api.telegram.org').replace(/\/$/, '');
      await post(
        `${base}/bot${cfg.TELEGRAM_BOT_TOKEN}/sendMessage`,
        JSON.stringify({ chat_id: chatId, text: fitLength(message.body, 1000) }),
        { 'content-type': 'application/json' },
      );
    },
  };
}

/** Web Push subscriptions of a user: attribute `webPushSubscriptions` (JSON array) or JSON entries of `notificationTokens`. */
export function pushSubscriptions(attrs: Record<string, unknown>): webpush.PushSubscription[] {
  const out: webpush.PushSubscription[] = [];
  const take = (v: unknown) => {
    if (v && typeof v === 'object' && typeof (v as { endpoint?: unknown }).endpoint === 'string') {
      out.push(v as webpush.PushSubscription);
    }
  };
  const parse = (s: string) => {
    try {
      const v: unknown = JSON.parse(s);
      if (Array.isArray(v)) v.forEach(take);
      else take(v);
    } catch {
      // plain FCM tokens cannot be used without Firebase credentials
    }
  };
  const subs = attrs.webPushSubscriptions;
  if (typeof subs === 'string') parse(subs);
  else if (Array.isArray(subs)) subs.forEach(take);
  const tokens = attrs.notificationTokens;
  if (typeof tokens === 'string') {
    if (tokens.trim().startsWith('[')) parse(tokens);
    else for (const t of tokens.split(',')) if (t.trim().startsWith('{')) parse(t);
  }
  return out;
}

export function pushNotificator(cfg: NotificatorConfig): Notificator {
  const configured = () => !!cfg.WEBPUSH_PUBLIC_KEY && !!cfg.WEBPUSH_PRIVATE_KEY;
  return {
    type: 'firebase',
    configured,
    async send(user, message, attrs) {
      if (!configured()) throw new NotConfigured('Notificator firebase is not configured');
      const subs = pushSubscriptions(attrs);
      if (!subs.length) throw new Error(`User ${user.id} has no push subscription`);
      const payload = JSON.stringify({ title: message.subject, body: fitLength(message.body, 500) });
      const options = {
        vapidDetails: {
          subject: cfg.WEBPUSH_SUBJECT ?? 'mailto:admin@localhost',
          publicKey: cfg.WEBPUSH_PUBLIC_KEY!,
          privateKey: cfg.WEBPUSH_PRIVATE_KEY!,
        },
        TTL: 3600,
      };
      const results = await Promise.allSettled(
        subs.map((s) => webpush.sendNotification(s, payload, options)),
      );
      if (results.every((r) => r.status === 'rejected'))
        throw new Error('Push delivery failed for every subscription');
    },
  };
}
