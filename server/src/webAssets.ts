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

/** The files under `dir` by path relative to it (`a/b.js`), each with the variants built beside it. */
export function loadAssets(dir: string): Map<string, HeldAsset> {
  const held = new Map<string, HeldAsset>();
  if (!existsSync(dir)) return held;
  const walk = (sub: string) => {
    for (const name of readdirSync(join(dir, sub))) {
      const rel = sub ? `${sub}/${name}` : name;
      const path = join(dir, rel);
      if (statSync(path).isDirectory()) walk(rel);
      else if (!name.endsWith('.br') && !name.endsWith('.gz')) held.set(rel, heldFile(path));
    }
  };
  walk('');
  return held;
}

function heldFile(path: string): HeldAsset {
  const plain = readFileSync(path);
  const variant = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
  return {
    type: TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    etag: `"${createHash('sha1').update(plain).digest('base64url')}"`,
    plain,
    br: variant('.br'),
    gzip: variant('.gz'),
  };
}

/** Whether Accept-Encoding admits `coding` (listed, or `*`, without q=0). */
export function accepts(acceptEncoding: string | undefined, coding: string): boolean {
  if (!acceptEncoding) return false;
  let star = false;
  for (const part of acceptEncoding.split(',')) {
    const [raw, ...params] = part.toLowerCase().split(';');
    const name = raw.trim();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name === coding) return allowed;
    if (name === '*') star = allowed;
  }
  return star;
}

/** Whether If-None-Match names `etag` (one of a list, weak or strong, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/**
 * Registers GET (and HEAD) `${prefix}*` answering the held files; any other path under the prefix goes to the
 * not-found handler, as before.
 */
export function registerAssets(
  app: FastifyInstance,
  prefix: string,
  held: Map<string, HeldAsset>,
  headers: Record<string, string>,
): void {
  app.get(`${prefix}*`, (req: FastifyRequest, reply: FastifyReply) => {
    const asset = held.get((req.params as { '*': string })['*']);
    if (!asset) return reply.callNotFound();
    reply.headers(headers).header('content-type', asset.type).header('etag', asset.etag);
    reply.header('vary', 'Accept-Encoding');
    if (matchesEtag(req.headers['if-none-match'], asset.etag)) return reply.status(304).send();
    const encoding = req.headers['accept-encoding'];
    if (asset.br && accepts(encoding, 'br')) return reply.header('content-encoding', 'br').send(asset.br);
    if (asset.gzip && accepts(encoding, 'gzip'))
      return reply.header('content-encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.plain);
  });
}
