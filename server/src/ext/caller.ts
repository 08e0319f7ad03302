// Who is calling an extension route, and what may they do with a device — the same questions in both modes.
//   embedded: the store's session/Basic/Bearer user (requireUser), canAccessDevice and checkWrite (access.ts).
//   gateway:  the upstream Traccar user (identity.ts's upstreamUser, cached ~10 s); a device is visible when
//             upstream `GET /api/devices?id=<id>` (or `?uniqueId=`) asked with the caller's own cookie or
//             Authorization header lists it; writes follow the upstream user's and server's readonly /
//             deviceReadonly flags (administrators are never restricted), with access.ts's messages.
// Device answers and server flags are cached for CALLER_TTL_MS per credential, like identities.
import type { FastifyRequest } from 'fastify';
import { mayWrite, resellerDomainOf } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { ApiError, denied, unauthorized } from '../errors.ts';
import { requireUser } from '../traccar/auth.ts';
import { canAccessDevice, checkWrite } from '../traccar/access.ts';
import { domainUser } from '../traccar/model.ts';
import { upstreamOf } from '../gateway/upstream.ts';
import { credentials, IDENTITY_TTL_MS, upstreamUser } from '../gateway/identity.ts';
import { deviceIdByUniqueIdAsync, findDeviceCardAsync } from '../db/repos/devices.ts';

export const CALLER_TTL_MS = IDENTITY_TTL_MS;
const MAX_ENTRIES = 10_000;
const UPSTREAM_TIMEOUT_MS = 10_000;

/** A device as far as the extension API needs it: its id and uniqueId (media folder name). */
export interface DeviceRef {
  id: number;
  uniqueId: string;
}

/** The signed-in caller of an extension route. */
export interface Caller {
  userId: number;
  administrator: boolean;
  /** The caller's domain when it is a reseller with one (its login-page branding), else ''. */
  resellerDomain: string;
  /** The device if the caller sees it, else `400 SecurityException: Device access denied`. */
  device(id: number): Promise<DeviceRef>;
  /** Same, by uniqueId. */
  deviceByUniqueId(uniqueId: string): Promise<DeviceRef>;
  /** Throws `Write access denied` when the caller may not change objects (`device`: also deviceReadonly). */
  checkWrite(kind?: 'device'): Promise<void>;
}

/** Upstream calls made by this module (diagnostics and tests). */
export const callerStats = { upstreamCalls: 0 };

const unreachable = () => new ApiError(502, 'Traccar server unreachable', 'WebApplicationException');

function unauthorizedFor(req: Pick<FastifyRequest, 'headers'>): ApiError {
  const accept = String(req.headers.accept ?? '');
  return unauthorized(accept.includes('text/html') ? { 'www-authenticate': 'Basic realm="api"' } : {});
}

// ---- embedded ------------------------------------------------------------------------------------------

async function embeddedCaller(ctx: AppContext, req: FastifyRequest): Promise<Caller> {
  const user = await requireUser(ctx, req);
  const visible = async (d: DeviceRef | undefined): Promise<DeviceRef> => {
    if (!d || !(await canAccessDevice(ctx, user, d.id))) throw denied('Device access denied');
    return { id: d.id, uniqueId: d.uniqueId };
  };
  return {
    userId: user.id,
    administrator: !!user.administrator,
    resellerDomain: resellerDomainOf(domainUser(user), ctx.config.ns),
    device: async (id) => visible(await findDeviceCardAsync(ctx.store.sql, id)),
    deviceByUniqueId: async (uniqueId) => {
      const id = await deviceIdByUniqueIdAsync(ctx.store.sql, uniqueId);
      return visible(id === undefined ? undefined : { id, uniqueId });
    },
    checkWrite: async (kind) => checkWrite(ctx, user, kind),
  };
}

// ---- gateway -------------------------------------------------------------------------------------------

interface Entry<T> {
  at: number;
  value: Promise<T>;
}
const caches = new WeakMap<AppContext, Map<string, Entry<unknown>>>();

/** Caches a successful upstream answer per key for CALLER_TTL_MS; failures are not kept. */
function cached<T>(ctx: AppContext, key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const hit = cache.get(key) as Entry<T> | undefined;
  if (hit && now - hit.at < CALLER_TTL_MS) return hit.value;
  if (cache.size >= MAX_ENTRIES) {
    for (const [k, e] of cache) if (now - e.at >= CALLER_TTL_MS) cache.delete(k);
    if (cache.size >= MAX_ENTRIES) cache.clear();
  }
  const value = load();
  const entry = { at: now, value };
  cache.set(key, entry);
  value.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return value;
}

/** Forgets cached device answers and server flags (tests; after permission changes made through Rastro). */
export function forgetCallerCache(ctx: AppContext): void {
  caches.get(ctx)?.clear();
}

async function upstreamGet(
  ctx: AppContext,
  path: string,
  headers: Record<string, string>,
): Promise<Response> {
  const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
  callerStats.upstreamCalls++;
  try {
    return await fetch(`${origin}${basePath}${path}`, {
      headers: { ...headers, accept: 'application/json' },
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
  } catch (err) {
    ctx.log.warn({ err, path }, 'upstream request failed');
    throw unreachable();
  }
}

/** The one device upstream lists for this query and these credentials, or null. */
async function lookupDevice(
  ctx: AppContext,
  creds: Record<string, string>,
  query: URLSearchParams,
): Promise<DeviceRef | null> {
  const res = await upstreamGet(ctx, `/api/devices?${query}`, creds);
  if (res.status === 401) throw unauthorized();
  if (!res.ok) return null; // Traccar refuses unknown or foreign ids with a 400/404
  const list = (await res.json().catch(() => null)) as unknown;
  if (!Array.isArray(list)) return null;
  const wanted = query.get('id');
  const uniqueId = query.get('uniqueId');
  for (const d of list as Array<Partial<DeviceRef> | null>) {
    if (!d || typeof d.id !== 'number' || typeof d.uniqueId !== 'string') continue;
    if ((wanted && d.id === Number(wanted)) || (uniqueId !== null && d.uniqueId === uniqueId))
      return { id: d.id, uniqueId: d.uniqueId };
  }
  return null;
}

interface ServerWriteFlags {
  readonly: boolean;
  deviceReadonly: boolean;
}

async function serverWriteFlags(ctx: AppContext): Promise<ServerWriteFlags> {
  return cached(ctx, 'server', async () => {
    const res = await upstreamGet(ctx, '/api/server', {});
    if (!res.ok) throw unreachable();
    const s = (await res.json().catch(() => null)) as Partial<ServerWriteFlags> | null;
    if (!s || typeof s !== 'object') throw unreachable();
    return { readonly: !!s.readonly, deviceReadonly: !!s.deviceReadonly };
  });
}

async function gatewayCaller(ctx: AppContext, req: FastifyRequest): Promise<Caller> {
  const user = await upstreamUser(ctx, req);
  const creds = credentials(req);
  if (!user || !creds) throw unauthorizedFor(req);
  const who = JSON.stringify(creds);
  const find = async (key: string, query: URLSearchParams) => {
    const d = await cached(ctx, `${who}|${key}`, () => lookupDevice(ctx, creds, query));
    if (!d) throw denied('Device access denied');
    return d;
  };
  return {
    userId: user.id,
    administrator: !!user.administrator,
    resellerDomain: resellerDomainOf(user, ctx.config.ns),
    device: (id) => find(`id:${id}`, new URLSearchParams({ id: String(id) })),
    deviceByUniqueId: (uniqueId) => find(`uniqueId:${uniqueId}`, new URLSearchParams({ uniqueId })),
    async checkWrite(kind) {
      if (user.administrator) return;
      if (!mayWrite(user, await serverWriteFlags(ctx), kind)) throw denied('Write access denied');
    },
  };
}

/** The signed-in caller in either mode, else 401 `Unauthorized` (as the embedded API answers). */
export function requireCaller(ctx: AppContext, req: FastifyRequest): Promise<Caller> {
  return ctx.config.mode === 'gateway' ? gatewayCaller(ctx, req) : embeddedCaller(ctx, req);
}
