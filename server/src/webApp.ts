// Serving the built web app like a production site: brotli and gzip variants made at build time
// (web/scripts/precompress.mjs) chosen by Accept-Encoding, content-hashed assets cached for a year as immutable,
// and the entry points (index.html, the service worker) never cached, so a new release is picked up at once.
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Config } from './config.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NEVER_CACHED = 'no-store';
/** Unhashed static files (favicon, map icons): a day, then revalidate. */
export const SHORT_LIVED = 'public, max-age=86400';

/** The cache policy of a file of the built app, by its path relative to the web root. */
export function cacheControlFor(relativePath: string): string {
  const p = relativePath.split(sep).join('/').replace(/^\/+/, '');
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
    setHeaders: (reply: FastifyReply, path: string) => {
      reply.header('cache-control', cacheControlFor(relative(root, path)));
    },
  });
  // The SPA: any GET that is not an API or asset path gets index.html.
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    if (req.method === 'GET' && !path.startsWith('/api/') && !path.startsWith(`/${config.ns}/`)) {
      return reply.type('text/html').sendFile('index.html');
    }
    reply.status(404).type('text/plain').send('');
  });
}
