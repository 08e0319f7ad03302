// A local SMTP server for browser tests: speaks just enough SMTP (EHLO, AUTH, MAIL, RCPT, DATA, QUIT) for the
// server's real mail client and keeps every message, base64 bodies and encoded headers decoded. Listens on 127.0.0.1 only.
import { createServer, type Server } from 'node:net';

export interface CapturedMail {
  to: string;
  subject: string;
  body: string;
}

export interface FakeSmtp {
  port: number;
  mails: CapturedMail[];
  /** Resolves with the first mail to `to` (waits up to `timeoutMs`). */
  waitFor(to: string, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

/** RFC 2047 encoded words (B and Q, UTF-8), adjacent words joined as the RFC says. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_q, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function parseMessage(to: string, data: string): CapturedMail {
  const [rawHead, ...rest] = data.split('\r\n\r\n');
  // folded header lines continue with a space or a tab
  const head = rawHead.replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map(
    head.split('\r\n').map((l) => {
      const i = l.indexOf(':');
      return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()] as const;
    }),
  );
  let body = rest.join('\r\n\r\n');
  if (/base64/i.test(headers.get('content-transfer-encoding') ?? ''))
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { to, subject: decodeWords(headers.get('subject') ?? ''), body };
}

export function startFakeSmtp(): Promise<FakeSmtp> {
  const mails: CapturedMail[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let rcpt = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mails.push(parseMessage(rcpt, buffer.slice(0, end)));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 OK\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake\r\n250 AUTH PLAIN\r\n');
        else if (verb === 'AUTH') socket.write('235 OK\r\n');
        else if (verb === 'MAIL') socket.write('250 OK\r\n');
        else if (verb === 'RCPT') {
          rcpt = /<([^>]*)>/.exec(line)?.[1] ?? '';
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      ok({
        port,
        mails,
        async waitFor(to, timeoutMs = 30_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const m = mails.find((x) => x.to === to);
            if (m) return m;
            if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
            await new Promise((r) => setTimeout(r, 100));
          }
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    }),
  );
}
