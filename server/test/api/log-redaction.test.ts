// Secrets never reach a log line at any level (issue #27): a password reset without mail set up logs that it was
// requested and that mail is not configured, never the link or its token; share links (/share/{token}) and
// tokens given in a query string are redacted in request lines.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/logging.ts';
import { getMailer } from '../../src/traccar/mailer.ts';
import { api, createUser, expectStatus, makeTestApp, postForm, type TestApp } from '../helpers/index.ts';

describe('log redaction', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    // trace: the most talkative level, so nothing is hidden by the level alone
    t = await makeTestApp({ logLevel: 'trace', logStream, publicUrl: 'https://rastro.example.com' });
  });
  afterAll(() => t.close());

  it('finding: a reset without SMTP logs the request and "mail not configured", never the link or the token', async () => {
    const u = await createUser(t);
    const from = lines.length;
    for (const url of ['/api/password/reset', '/api/session/password'])
      expect((await postForm(t.app, null, url, { email: u.email })).statusCode).toBe(200);
    const mail = getMailer(t.ctx).outbox.at(-1)!.body;
    const token = /\/login\/recover\/([\w-]+)/.exec(mail)![1];
    expect(token.length).toBeGreaterThan(20);
    const log = lines.slice(from).join('');
    expect(log).toContain('password reset requested');
    expect(log).toContain('mail not configured');
    expect(log).not.toContain(token);
    expect(log).not.toContain('/login/recover/');
    expect(log).not.toContain(mail);
  });

  it('finding: a share link /share/{token} is redacted in the request line', async () => {
    const token = 'ShArE-t0ken-abcdefghijklmnopqrstuvwxyz';
    const from = lines.length;
    await t.app.inject({ method: 'GET', url: `/share/${token}` });
    await t.app.inject({ method: 'GET', url: `/share/${token}?lang=es` });
    const log = lines.slice(from).join('');
    expect(log).toContain('/share/[redacted]');
    expect(log).not.toContain(token);
  });

  it('tokens of API calls and the socket are redacted too', async () => {
    const token = expectStatus<string>(await postForm(t.app, t.admin, '/api/session/token', {}), 200);
    const from = lines.length;
    await api(t.app, null, 'GET', `/api/devices?token=${encodeURIComponent(token)}`);
    await api(t.app, null, 'GET', `/api/socket?token=${encodeURIComponent(token)}`);
    const log = lines.slice(from).join('');
    expect(log).toContain('token=[redacted]');
    expect(log).not.toContain(token);
  });

  it('redactUrl: share links, reset links and query tokens', () => {
    expect(redactUrl('/share/AbC_123-x')).toBe('/share/[redacted]');
    expect(redactUrl('/share/AbC?x=1')).toBe('/share/[redacted]?x=1');
    expect(redactUrl('/app/share/AbC')).toBe('/app/share/[redacted]');
    expect(redactUrl('/login/recover/AbC')).toBe('/login/recover/[redacted]');
    expect(redactUrl('/api/socket?token=abc')).toBe('/api/socket?token=[redacted]');
    expect(redactUrl('/shares/list')).toBe('/shares/list');
    expect(redactUrl('/rastro/shares/12')).toBe('/rastro/shares/12');
  });
});
