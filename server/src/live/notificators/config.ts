// Notification channels' settings from the environment, validated with zod (listed in docs/configuration.md).
import { z } from 'zod';

const port = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0 || n > 65535) {
      ctx.addIssue({ code: 'custom', message: `expected a TCP port, got "${v}"` });
      return z.NEVER;
    }
    return n;
  });
const opt = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const bool = z
  .string()
  .optional()
  .transform((v) => v === 'true' || v === '1');

const schema = z.object({
  SMTP_HOST: opt,
  SMTP_PORT: port,
  /** true = implicit TLS (port 465); otherwise STARTTLS is used when the server offers it. */
  SMTP_SECURE: bool,
  SMTP_USER: opt,
  SMTP_PASSWORD: opt,
  SMTP_FROM: opt,
  SMS_HTTP_URL: opt.pipe(z.url().optional()),
  SMS_HTTP_AUTHORIZATION: opt,
  /** JSON body template with {phone} and {message} placeholders. */
  SMS_HTTP_TEMPLATE: opt,
  WEBPUSH_PUBLIC_KEY: opt,
  WEBPUSH_PRIVATE_KEY: opt,
  WEBPUSH_SUBJECT: opt,
  TELEGRAM_BOT_TOKEN: opt,
  TELEGRAM_CHAT_ID: opt,
  TELEGRAM_API_URL: opt.pipe(z.url().optional()),
});

export type NotificatorConfig = z.output<typeof schema>;

export function loadNotificatorConfig(env: NodeJS.ProcessEnv = process.env): NotificatorConfig {
  const r = schema.safeParse(env);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid notification configuration:\n${lines}`);
  }
  return r.data;
}
