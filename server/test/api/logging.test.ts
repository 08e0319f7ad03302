// Logs (issue #12): quiet and readable by default, requests only at debug, never a token given in a URL.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { prettyLine, redactUrl } from '../../src/logging.ts';
import { api, expectStatus, makeTestApp, postForm } from '../helpers/index.ts';

const capture = () => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logStream };
};

describe('logs', () => {
  it('at the default info level a request writes no line; at debug one line per answered request', async () => {
    const quiet = capture();
    const a = await makeTestApp({ logLevel: 'info', logStream: quiet.logStream });
    try {
      expectStatus(await api(a.app, a.admin, 'GET', '/api/devices'), 200);
      expect(quiet.lines.join('')).not.toContain('/api/devices');
    } finally {
      await a.close();
    }
    const loud = capture();
    const b = await makeTestApp({ logLevel: 'debug', logStream: loud.logStream });
    try {
      expectStatus(await api(b.app, b.admin, 'GET', '/api/devices'), 200);
      const line = loud.lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'request' && (l.req as { url: string }).url === '/api/devices');
      expect(line).toMatchObject({ level: 20, res: { statusCode: 200 } });
      expect(typeof line?.responseTime).toBe('number');
    } finally {
      await b.close();
    }
  });

  it('the pretty form is one short line: time, level, message, request, status, duration', () => {
    const json = JSON.stringify({
      level: 20,
      time: Date.parse('2026-11-25T10:11:12Z'),
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      req: { method: 'GET', url: '/api/session?token=[redacted]' },
      res: { statusCode: 200 },
      responseTime: 3.4,
      msg: 'request',
    });
    expect(prettyLine(json)).toBe('10:11:12 DEBUG request GET /api/session?token=[redacted] 200 3 ms\n');
    expect(prettyLine(JSON.stringify({ level: 40, time: 0, msg: 'mail not configured', to: 'a@b' }))).toBe(
      '00:00:00 WARN  mail not configured (to=a@b)\n',
    );
    expect(prettyLine('not json')).toBe('not json');
  });

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
    const t = await makeTestApp({ logLevel: 'debug', logStream });
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
