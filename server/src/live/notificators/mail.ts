// Mail over SMTP through nodemailer (STARTTLS when offered, AUTH with the configured account, multipart messages
// with attachments). One connection per message: mail here is notifications and reports, not bulk.
import nodemailer from 'nodemailer';
import type { NotificatorConfig } from './config.ts';
import { NotConfigured, fitLength, type Notificator } from './types.ts';

export interface SmtpOptions {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
  /** Test servers with self-signed certificates. */
  rejectUnauthorized?: boolean;
  timeoutMs?: number;
}

/** A file sent with a mail (scheduled reports' .xlsx). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export async function sendMail(
  o: SmtpOptions,
  to: string,
  subject: string,
  body: string,
  attachments: readonly MailAttachment[] = [],
): Promise<void> {
  const timeout = o.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport({
    host: o.host,
    port: o.port,
    secure: o.secure,
    name: 'rastro',
    auth: o.user ? { user: o.user, pass: o.password ?? '' } : undefined,
    tls: { servername: o.host, rejectUnauthorized: o.rejectUnauthorized ?? true },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  try {
    await transport.sendMail({
      from: o.from,
      to,
      subject,
      text: body,
      // 'B': non-ASCII headers and bodies in base64 rather than quoted-printable, so links in notifications and
      // password resets are never cut by soft line breaks (plain ASCII bodies go as they are)
      textEncoding: 'base64',
      attachments: attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
      })),
    });
  } finally {
    transport.close();
  }
}

/** SMTP settings from the environment, or null when mail is not configured. */
export function smtpOptions(cfg: NotificatorConfig): SmtpOptions | null {
  if (!cfg.SMTP_HOST || !cfg.SMTP_FROM) return null;
  return {
    host: cfg.SMTP_HOST,
    port: cfg.SMTP_PORT ?? (cfg.SMTP_SECURE ? 465 : 587),
    secure: cfg.SMTP_SECURE,
    user: cfg.SMTP_USER,
    password: cfg.SMTP_PASSWORD,
    from: cfg.SMTP_FROM,
  };
}

export function mailNotificator(cfg: NotificatorConfig): Notificator {
  return {
    type: 'mail',
    configured: () => !!cfg.SMTP_HOST && !!cfg.SMTP_FROM,
    async send(user, message) {
      if (!cfg.SMTP_HOST || !cfg.SMTP_FROM) throw new NotConfigured('Notificator mail is not configured');
      if (!user.email || !user.email.includes('@')) throw new Error(`User ${user.id} has no e-mail address`);
      await sendMail(smtpOptions(cfg)!, user.email, message.subject, fitLength(message.body, 5000));
    },
  };
}
