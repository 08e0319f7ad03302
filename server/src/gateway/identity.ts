// Who is calling, in gateway mode: the extension API asks upstream GET /api/session with the caller's own
// cookie (or Authorization header) and keeps the answer ~10 s, so a burst of requests costs one round trip.
import type { FastifyRequest } from 'fastify';
import type { User } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { upstreamOf } from './upstream.ts';

export const IDENTITY_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  at: number;
  user: Promise<User | null>;
}

const caches = new WeakMap<AppContext, Map<string, Entry>>();
/** Upstream calls made (diagnostics and tests). */
export const identityStats = { upstreamCalls: 0 };

/** The credentials that identify a caller to Traccar: its cookie or Authorization header. */
export function credentials(req: Pick<FastifyRequest, 'headers'>): Record<string, string> | null {
  const { cookie, authorization } = req.headers;
  if (typeof authorization === 'string' && authorization) return { authorization };
  if (typeof cookie === 'string' && cookie) return { cookie };
  return null;
}

async function ask(ctx: AppContext, headers: Record<string, string>): Promise<User | null> {
  const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
  identityStats.upstreamCalls++;
  try {
    const res = await fetch(`${origin}${basePath}/api/session`, {
      headers: { ...headers, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) return null;
    const user = (await res.json()) as User;
    return user && typeof user.id === 'number' ? user : null;
  } catch (err) {
    ctx.log.warn({ err }, 'upstream identity lookup failed');
    return null;
  }
}

/** The upstream Traccar user of this request, or null (anonymous, expired session, upstream down). */
export function upstreamUser(
  ctx: AppContext,
  req: Pick<FastifyRequest, 'headers'>,
  now = Date.now(),
): Promise<User | null> {
  const creds = credentials(req);
  if (!creds) return Promise.resolve(null);
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const key = JSON.stringify(creds);
  const hit = cache.get(key);
  if (hit && now - hit.at < IDENTITY_TTL_MS) return hit.user;
  if (cache.size >= MAX_ENTRIES) {
    for (const [k, e] of cache) if (now - e.at >= IDENTITY_TTL_MS) cache.delete(k);
    if (cache.size >= MAX_ENTRIES) cache.clear();
  }
  const user = ask(ctx, creds);
  cache.set(key, { at: now, user });
  return user;
}

/** Forgets cached identities (e.g. after a logout through the proxy). */
export function forgetIdentities(ctx: AppContext): void {
  caches.get(ctx)?.clear();
}
