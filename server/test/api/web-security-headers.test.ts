// Security headers by route (issue #27): every HTML answer of the web app carries the same CSP (with
// frame-ancestors), X-Frame-Options, X-Content-Type-Options and Referrer-Policy, whatever variant went out:
// identity, brotli, gzip, 304, HEAD, and the SPA fallback for deep links, in embedded and gateway mode. Before,
// only the uncompressed index.html had them, and every browser asks for br or gzip.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { CONTENT_SECURITY_POLICY, NEVER_CACHED, securityHeaders } from '../../src/webApp.ts';
import { makeTestApp, type TestApp } from '../helpers/index.ts';

const HTML = `<!doctype html><html><head><title>Rastro</title></head><body>${'<p>x</p>'.repeat(200)}</body></html>`;

function makeWebRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'rastro-web-headers-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), HTML);
  writeFileSync(join(root, 'index.html.br'), brotliCompressSync(HTML));
  writeFileSync(join(root, 'index.html.gz'), gzipSync(HTML));
  writeFileSync(join(root, 'favicon.svg'), '<svg/>');
  writeFileSync(join(root, 'service-worker.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(root, 'assets', 'index-AbC123.js'), 'export {};');
  return root;
}

const PAGE_HEADERS = securityHeaders(true);

function expectPageHeaders(res: LightMyRequestResponse, what: string): void {
  for (const [name, value] of Object.entries(PAGE_HEADERS))
    expect(res.headers[name], `${what}: ${name}`).toBe(value);
  expect(String(res.headers['content-security-policy']), what).toContain("frame-ancestors 'self'");
}

/** Every way a browser (or a cache revalidating) gets an HTML page of the app. */
async function checkEveryVariant(app: FastifyInstance): Promise<void> {
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    app.inject({ method, url, headers });
  for (const url of [
    '/index.html',
    '/',
    '/devices/1',
    '/share/AbCdEf123',
    '/login/recover/T0k3n',
    '/home?x=1',
  ]) {
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode, url).toBe(200);
    expect(br.headers['content-encoding'], url).toBe('br');
    expectPageHeaders(br, `${url} br`);
    expect(br.headers['cache-control'], url).toBe(NEVER_CACHED);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding'], url).toBe('gzip');
    expectPageHeaders(gz, `${url} gzip`);

    const plain = await get(url);
    expect(plain.headers['content-encoding'], url).toBeUndefined();
    expect(plain.body, url).toBe(HTML);
    expectPageHeaders(plain, `${url} identity`);

    for (const encoding of ['br', 'gzip', 'identity']) {
      const head = await get(url, { 'accept-encoding': encoding }, 'HEAD');
      expect(head.statusCode, `${url} HEAD ${encoding}`).toBe(200);
      expect(head.rawPayload.length, `${url} HEAD ${encoding}`).toBe(0);
      expectPageHeaders(head, `${url} HEAD ${encoding}`);
    }

    for (const [encoding, first] of [
      ['br', br],
      ['gzip', gz],
      ['identity', plain],
    ] as const) {
      const validators: Record<string, string> = { 'accept-encoding': encoding };
      if (first.headers.etag) validators['if-none-match'] = String(first.headers.etag);
      if (first.headers['last-modified'])
        validators['if-modified-since'] = String(first.headers['last-modified']);
      const again = await get(url, validators);
      expect(again.statusCode, `${url} 304 ${encoding}`).toBe(304);
      expectPageHeaders(again, `${url} 304 ${encoding}`);
    }
  }
  // files that are not pages keep the common headers and no page policy
  for (const url of ['/favicon.svg', '/service-worker.js', '/assets/index-AbC123.js']) {
    const res = await get(url, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    expect(res.headers['content-security-policy'], url).toBeUndefined();
  }
  // extension API paths that do not exist are no page (in gateway mode /api/* belongs to the upstream)
  const api = await get('/rastro/nothing-here', { 'accept-encoding': 'br' });
  expect(api.statusCode).toBe(404);
  expect(api.headers['content-security-policy']).toBeUndefined();
}

describe('security headers on every HTML answer', () => {
  let root: string;
  beforeAll(() => {
    root = makeWebRoot();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('the policy forbids framing by other sites', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'self'");
    expect(PAGE_HEADERS['x-frame-options']).toBe('SAMEORIGIN');
  });

  describe('embedded mode', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeTestApp({ webRoot: root });
    });
    afterAll(() => t.close());

    it('finding: br, gzip, identity, HEAD, 304 and the SPA fallback all carry CSP and X-Frame-Options', async () => {
      await checkEveryVariant(t.app);
    });
  });

  describe('gateway mode', () => {
    let app: FastifyInstance;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'rastro-gw-headers-'));
      // nothing listens upstream: static pages never ask it
      const config = loadConfig(
        {
          TRACCAR_URL: 'http://127.0.0.1:9',
          DATA_DIR: dir,
          LOG_LEVEL: 'silent',
          SIM_DEVICES: '0',
          OSMAND_PORT: '0',
        },
        { webRoot: root },
      );
      expect(config.mode).toBe('gateway');
      app = (await buildApp(config)).app;
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('finding: the same headers on every variant in front of a Traccar server', async () => {
      await checkEveryVariant(app);
    });
  });
});
