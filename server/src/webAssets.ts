// The content-hashed files of the built app (web/dist/assets) held in memory with their brotli and gzip variants
// and answered in one turn of the event loop. Served from disk (@fastify/static), each of the ~40 files the first
// page needs took several turns (stat, open, read, close in the thread pool), and on a server busy with a 10,000
// device list and trackers' reports those turns queued behind everything else: small chunks waited up to 300 ms
// (bench/results/map.md, session 16). A hashed file never changes under its name, so holding it is always correct;
// index.html, the service worker and the unhashed files stay on disk (webApp.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

export interface HeldAsset {
  type: string;
  etag: string;
  plain: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
};

/** The files of `dir` (one level: Vite writes its assets flat) by name, each with the variants built beside it. */
export function loadAssets(dir: string): Map<string, HeldAsset> {
  const held = new Map<string, HeldAsset>();
  if (!existsSync(dir)) return held;
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const plain = readFileSync(path);
    const variant = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
    held.set(name, {
      type: TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(plain).digest('base64url')}"`,
      plain,
      br: variant('.br'),
      gzip: variant('.gz'),
    });
  }
  return held;
}

/** Whether Accept-Encoding admits `coding` (listed, or `*`, without q=0). */
export function accepts(acceptEncoding: string | undefined, coding: string): boolean {
  if (!acceptEncoding) return false;
  let star = false;
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name === coding) return allowed;
    if (name === '*') star = allowed;
  }
  return star;
}

/** Registers GET (and HEAD) `${prefix}<name>` for every held file. */
export function registerAssets(
  app: FastifyInstance,
  prefix: string,
  held: Map<string, HeldAsset>,
  headers: Record<string, string>,
): void {
  for (const [name, asset] of held) {
    app.get(`${prefix}${name}`, (req: FastifyRequest, reply: FastifyReply) => {
      reply.headers(headers).header('content-type', asset.type).header('etag', asset.etag);
      reply.header('vary', 'Accept-Encoding');
      if (req.headers['if-none-match'] === asset.etag) return reply.status(304).send();
      const encoding = req.headers['accept-encoding'];
      if (asset.br && accepts(encoding, 'br')) return reply.header('content-encoding', 'br').send(asset.br);
      if (asset.gzip && accepts(encoding, 'gzip'))
        return reply.header('content-encoding', 'gzip').send(asset.gzip);
      return reply.send(asset.plain);
    });
  }
}
