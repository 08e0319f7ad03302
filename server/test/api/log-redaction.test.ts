// Tokens given in a URL are never written to the log (issue #12).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/logRedact.ts';
import { api, expectStatus, makeTestApp, postForm } from '../helpers/index.ts';

describe('log redaction', () => {
  it('redactUrl hides token, password, key and code parameters and reset-link tokens', () => {
    expect(redactUrl('/api/session?token=abc.def&x=1')).toBe('/api/session?token=[redacted]&x=1');
    expect(redactUrl('/api/socket?TOKEN=s3cr3t')).toBe('/api/socket?TOKEN=[redacted]');
    expect(redactUrl('/x?a=1&password=pw&apiKey=k&code=123456')).toBe(
      '/x?a=1&password=[redacted]&apiKey=[redacted]&code=[redacted]',
    );
    expect(redactUrl('/login/recover/AbC123?x=1')).toBe('/login/recover/[redacted]?x=1');
    expect(redactUrl('/api/devices?all=true')).toBe('/api/devices?all=true');
  });

  it('finding: a token login through GET /api/session?token= leaves no token in the request log', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await makeTestApp({ logLevel: 'info', logStream });
    try {
      const token = expectStatus<string>(await postForm(t.app, t.admin, '/api/session/token', {}), 200);
      expect(token.length).toBeGreaterThan(20);
      expectStatus(await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`), 200);
      const log = lines.join('');
      expect(log).toContain('/api/session?token=[redacted]'); // the request was logged…
      expect(log).not.toContain(token); // …without its token
      expect(log).not.toContain(encodeURIComponent(token));
    } finally {
      await t.close();
    }
  });
});
