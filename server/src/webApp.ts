// Serving the built web app like a production site: brotli and gzip variants made at build time
// (web/scripts/precompress.mjs) chosen by Accept-Encoding, content-hashed assets cached for a year as immutable,
// and the entry points (index.html, the service worker) never cached, so a new release is picked up at once.
// Pages carry a Content Security Policy and may only be framed by the app itself.
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Config } from './config.ts';
import { loadAssets, registerAssets } from './webAssets.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NEVER_CACHED = 'no-store';
/** Unhashed static files (favicon, map icons): a day, then revalidate. */
export const SHORT_LIVED = 'public, max-age=86400';

/**
 * Content Security Policy of the app's pages: scripts only from this origin (the build has no inline script), styles
 * inline too (Mantine and the white-label theme set them at run time), map tiles, styles and glyphs from any HTTPS
 * provider the map styles name, MapLibre's blob workers, device cameras (video and stills from any http(s) address a
 * device's videoUrl names: trackers' cameras often sit on plain http), and no framing by other sites (the
 * engine-block slider must not be clickjacked).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss: https:",
  "worker-src 'self' blob:",
  "child-src 'self' blob:",
  "media-src 'self' data: blob: https: http:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Headers of every file of the built app; pages also get the CSP and the anti-framing header. */
export function securityHeaders(isPage: boolean): Record<string, string> {
  const common = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' };
  if (!isPage) return common;
  return { ...common, 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-frame-options': 'SAMEORIGIN' };
}

/**
 * Whether a file of the built app is a page (gets the CSP and the anti-framing header): an HTML file, or a brotli or
 * gzip variant made from one (index.html.br is index.html to the browser).
 */
function isPageFile(path: string): boolean {
  return /\.html(\.(br|gz))?$/i.test(path);
}

/** The cache policy of a file of the built app, by its path relative to the web root. */
export function cacheControlFor(relativePath: string): string {
  // a brotli or gzip variant is cached like the file it was made from (index.html.br is index.html)
  const p = relativePath
    .split(sep)
    .join('/')
    .replace(/^\/+/, '')
    .replace(/\.(br|gz)$/, '');
  if (p === 'index.html' || p === 'service-worker.js' || p.endsWith('.webmanifest')) return NEVER_CACHED;
  if (p.startsWith('assets/')) return IMMUTABLE; // Vite names them by content hash
  return SHORT_LIVED;
}

export async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  const root = config.webRoot;
  if (!existsSync(join(root, 'index.html'))) return;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    globIgnore: ['assets/**'], // served from memory below
    setHeaders: (reply: FastifyReply, path: string) => {
      reply.header('cache-control', cacheControlFor(relative(root, path)));
      reply.headers(securityHeaders(isPageFile(path)));
    },
  });
  // the content-hashed files, from memory (webAssets.ts)
  registerAssets(app, '/assets/', loadAssets(join(root, 'assets')), {
    ...securityHeaders(false),
    'cache-control': IMMUTABLE,
  });
  // The SPA: any GET (or HEAD) that is not an API or asset path gets index.html, a page whatever variant is sent.
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && !path.startsWith('/api/') && !path.startsWith(`/${config.ns}/`)) {
      return reply.headers(securityHeaders(true)).type('text/html').sendFile('index.html');
    }
    reply.status(404).type('text/plain').send('');
  });
}
