// The built app is served like a production site (issue #13): precompressed variants by Accept-Encoding,
// hashed assets immutable for a year, index.html and the service worker never cached.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, IMMUTABLE, NEVER_CACHED, SHORT_LIVED } from '../../src/webApp.ts';
import { accepts, matchesEtag } from '../../src/webAssets.ts';
import { makeTestApp, type TestApp } from '../helpers/index.ts';

const JS = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;

describe('serving the built web app', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'rastro-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Rastro</title>');
    writeFileSync(join(webRoot, 'service-worker.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(webRoot, 'favicon.svg'), '<svg/>');
    writeFileSync(join(webRoot, 'assets', 'index-AbC123.js'), JS);
    writeFileSync(join(webRoot, 'assets', 'index-AbC123.js.br'), brotliCompressSync(JS));
    writeFileSync(join(webRoot, 'assets', 'index-AbC123.js.gz'), gzipSync(JS));
    mkdirSync(join(webRoot, 'assets', 'fonts'));
    writeFileSync(join(webRoot, 'assets', 'fonts', 'sans-Xy9.woff2'), 'woff2');
    t = await makeTestApp({ webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('finding: hashed assets go out precompressed and immutable for a year', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(JS.length / 10);
    const gz = await get('/assets/index-AbC123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(JS);
    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(JS);
  });

  it('hashed assets come from memory: a validator, 304 when the copy is current, HEAD without a body', async () => {
    const first = await get('/assets/index-AbC123.js', 'br');
    expect(first.headers['content-type']).toMatch(/^text\/javascript/);
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'if-none-match': etag, 'accept-encoding': 'br' },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-AbC123.js' });
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(JS));
    // brotli refused (q=0): gzip
    expect((await get('/assets/index-AbC123.js', 'br;q=0, gzip')).headers['content-encoding']).toBe('gzip');
    // a file in a folder of its own, with its type; a name that was not built is not an asset
    const font = await get('/assets/fonts/sans-Xy9.woff2');
    expect([font.statusCode, font.headers['content-type'], font.body]).toEqual([200, 'font/woff2', 'woff2']);
    const missing = await get('/assets/index-Gone00.js');
    expect(missing.headers['cache-control']).not.toBe(IMMUTABLE);
    expect(missing.body).not.toContain('answer');
  });

  it('If-None-Match as HTTP reads it: one of a list, weak or strong, or *', () => {
    expect(matchesEtag('"a", W/"b"', '"b"')).toBe(true);
    expect(matchesEtag('"a"', '"b"')).toBe(false);
    expect(matchesEtag('*', '"b"')).toBe(true);
    expect(matchesEtag(undefined, '"b"')).toBe(false);
  });

  it('Accept-Encoding as HTTP reads it: listed or *, never with q=0', () => {
    expect(accepts('gzip, deflate, br', 'br')).toBe(true);
    expect(accepts('gzip;q=0.5, br;q=0', 'br')).toBe(false);
    expect(accepts('*', 'gzip')).toBe(true);
    expect(accepts('*, gzip;q=0', 'gzip')).toBe(false);
    expect(accepts('identity', 'gzip')).toBe(false);
    expect(accepts(undefined, 'gzip')).toBe(false);
    expect(accepts(' BR ', 'br')).toBe(true);
  });

  it('index.html, SPA routes and the service worker are never cached', async () => {
    for (const url of ['/index.html', '/login', '/home?x=1', '/service-worker.js']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(NEVER_CACHED);
    }
    expect((await get('/favicon.svg')).headers['cache-control']).toBe(SHORT_LIVED);
  });

  it('API paths that do not exist stay 404, not the app', async () => {
    expect((await get('/api/nothing-here')).statusCode).toBe(404);
  });

  it('cacheControlFor by path', () => {
    expect(cacheControlFor('assets/Button-DNygt1M9.js')).toBe(IMMUTABLE);
    expect(cacheControlFor('index.html')).toBe(NEVER_CACHED);
    expect(cacheControlFor('service-worker.js')).toBe(NEVER_CACHED);
    expect(cacheControlFor('map-icons/car.png')).toBe(SHORT_LIVED);
  });
});
