// Outgoing mail adapter. The embedded server has no SMTP settings, so the default adapter reports
// "not configured", logs that a message was not sent (its recipient and subject, never its body: a reset mail's
// body is a link that signs its holder in) and keeps it in an in-memory outbox (tests read it).
import type { AppContext } from '../context.ts';

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
  /** Files sent with the message (scheduled reports' .xlsx). */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<{ sent: boolean; reason?: string }>;
  /** Messages handed to the adapter, newest last (kept for the last 100). */
  readonly outbox: MailMessage[];
}

function logMailer(ctx: AppContext): Mailer {
  const outbox: MailMessage[] = [];
  return {
    configured: false,
    outbox,
    async send(message) {
      outbox.push(message);
      if (outbox.length > 100) outbox.shift();
      ctx.log.warn(
        { to: message.to, subject: message.subject, attachments: message.attachments?.length ?? 0 },
        'mail not configured; message not sent',
      );
      return { sent: false, reason: 'not configured' };
    },
  };
}

const mailers = new WeakMap<AppContext, Mailer>();

export function getMailer(ctx: AppContext): Mailer {
  let m = mailers.get(ctx);
  if (!m) mailers.set(ctx, (m = logMailer(ctx)));
  return m;
}

/** Replaces the adapter (a real SMTP sender, or a test double). */
export function setMailer(ctx: AppContext, mailer: Mailer): void {
  mailers.set(ctx, mailer);
}
