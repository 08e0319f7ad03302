// Mail over SMTP with node's net/tls: EHLO, optional STARTTLS, AUTH PLAIN, MAIL FROM, RCPT TO, DATA.
import { randomBytes } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { NotificatorConfig } from './config.ts';
import { NotConfigured, truncate, type Notificator } from './types.ts';

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

/** A line-oriented SMTP conversation over one socket. */
class SmtpConversation {
  private buffer = '';
  private waiters: Array<(reply: { code: number; text: string }) => void> = [];
  private lines: string[] = [];
  private failure: Error | null = null;

  constructor(private socket: Socket | TLSSocket) {
    this.bind(socket);
  }

  bind(socket: Socket | TLSSocket): void {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('SMTP connection closed')));
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    for (const w of this.waiters.splice(0)) w({ code: 0, text: err.message });
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let i: number;
    while ((i = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, i).replace(/\r$/, '');
      this.buffer = this.buffer.slice(i + 1);
      this.lines.push(line);
      // "250-..." continues, "250 ..." ends a reply
      if (/^\d{3}( |$)/.test(line)) {
        const text = this.lines.join('\n');
        this.lines = [];
        this.waiters.shift()?.({ code: Number(line.slice(0, 3)), text });
      }
    }
  }

  reply(): Promise<{ code: number; text: string }> {
    if (this.failure) return Promise.resolve({ code: 0, text: this.failure.message });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async command(line: string | null, expect: number[]): Promise<string> {
    const pending = this.reply();
    if (line !== null) this.socket.write(`${line}\r\n`);
    const r = await pending;
    if (!expect.includes(r.code))
      throw new Error(`SMTP ${line?.split(' ')[0] ?? 'greeting'} failed: ${r.text}`);
    return r.text;
  }
}

const encodeHeader = (s: string) =>
  /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s).toString('base64')}?=`;

/** A file sent with a mail (scheduled reports' .xlsx). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

const base64Lines = (data: Buffer) => data.toString('base64').replace(/.{1,76}/g, '$&\r\n');

/** Headers and body of the DATA section: plain text, or multipart/mixed with the attachments. */
export function mimeMessage(
  from: string,
  to: string,
  subject: string,
  body: string,
  attachments: readonly MailAttachment[] = [],
): string {
  const headers = [
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${encodeHeader(subject)}`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
  ];
  const text = base64Lines(Buffer.from(body));
  if (!attachments.length) {
    headers.push('Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64');
    return `${headers.join('\r\n')}\r\n\r\n${text}`;
  }
  const boundary = `rastro-${randomBytes(12).toString('hex')}`;
  headers.push(`Content-Type: multipart/mixed; boundary="${boundary}"`);
  const parts = [
    `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${text}`,
    ...attachments.map((a) => {
      const name = a.filename.replace(/["\r\n\\]/g, '_');
      return (
        `--${boundary}\r\nContent-Type: ${a.contentType}; name="${name}"\r\n` +
        `Content-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n` +
        base64Lines(a.content)
      );
    }),
  ];
  return `${headers.join('\r\n')}\r\n\r\n${parts.join('')}--${boundary}--\r\n`;
}

export async function sendMail(
  o: SmtpOptions,
  to: string,
  subject: string,
  body: string,
  attachments: readonly MailAttachment[] = [],
): Promise<void> {
  const timeout = o.timeoutMs ?? 15_000;
  const open = (): Promise<Socket | TLSSocket> =>
    new Promise((resolve, reject) => {
      const s = o.secure
        ? tlsConnect({
            host: o.host,
            port: o.port,
            servername: o.host,
            rejectUnauthorized: o.rejectUnauthorized ?? true,
          })
        : netConnect({ host: o.host, port: o.port });
      s.setTimeout(timeout, () => s.destroy(new Error('SMTP timeout')));
      s.once(o.secure ? 'secureConnect' : 'connect', () => resolve(s));
      s.once('error', reject);
    });
  let socket = await open();
  const smtp = new SmtpConversation(socket);
  try {
    await smtp.command(null, [220]);
    let ehlo = await smtp.command('EHLO rastro', [250]);
    if (!o.secure && /STARTTLS/i.test(ehlo)) {
      await smtp.command('STARTTLS', [220]);
      socket.removeAllListeners('data');
      socket.removeAllListeners('close');
      socket.removeAllListeners('error');
      socket = await new Promise<TLSSocket>((resolve, reject) => {
        const t = tlsConnect({
          socket,
          servername: o.host,
          rejectUnauthorized: o.rejectUnauthorized ?? true,
        });
        t.once('secureConnect', () => resolve(t));
        t.once('error', reject);
      });
      smtp.bind(socket);
      ehlo = await smtp.command('EHLO rastro', [250]);
    }
    if (o.user) {
      const token = Buffer.from(`\0${o.user}\0${o.password ?? ''}`).toString('base64');
      await smtp.command(`AUTH PLAIN ${token}`, [235]);
    }
    await smtp.command(`MAIL FROM:<${o.from}>`, [250]);
    await smtp.command(`RCPT TO:<${to}>`, [250, 251]);
    await smtp.command('DATA', [354]);
    const data = mimeMessage(o.from, to, subject, body, attachments).replace(/\r\n$/, '');
    await smtp.command(`${data}\r\n.`, [250]);
    await smtp.command('QUIT', [221]).catch(() => undefined);
  } finally {
    socket.destroy();
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
      await sendMail(smtpOptions(cfg)!, user.email, message.subject, truncate(message.body, 5000));
    },
  };
}
