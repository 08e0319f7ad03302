// Device changes made through the API reach other users' open pages (issue #28): after a device is created or
// changed (PUT /api/devices/{id}, its accumulators) or linked to or unlinked from anything (/api/permissions with a
// deviceId), every socket of the users who see it now gets the device as Traccar's `devices` update, within the
// socket's tick. The pages apply it as they apply a status change (web stores/live.ts). A write that may change
// who sees which device (a device deleted or moved to another group, a link with a device or a group, a group
// moved or deleted) compares each connected user's sight before and after it: a device gone goes out as
// `removedDevices`, a device come into sight as the device and its latest position (SocketHub.pushSightChanges).
// With several processes on one PostgreSQL database (db/cluster.ts), the others hear of it as a 'devices' message
// (the ids, and whether sight may have changed): they push the devices, and compare each of their sockets with the
// sight it was last told of, so a page open on another process changes the same way.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ParsedPermission } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { isDatabaseUnavailable } from '../db/sql.ts';
import type { LiveCache } from './cache.ts';
import type { LiveCore } from './ingest.ts';
import type { SocketHub } from './socket.ts';

const DEVICE_URL = /^\/api\/devices(?:\/(\d+)(?:\/accumulators)?)?\/?(?:\?|$)/;
const PERMISSION_URL = /^\/api\/permissions(?:\/bulk)?\/?(?:\?|$)/;
const GROUP_URL = /^\/api\/groups\/\d+\/?(?:\?|$)/;

/** Whether a write request may change which devices some user sees. */
function mayChangeSight(req: FastifyRequest): boolean {
  if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'DELETE') return false;
  if (PERMISSION_URL.test(req.url)) return true;
  if (GROUP_URL.test(req.url)) return req.method !== 'POST';
  const device = DEVICE_URL.exec(req.url);
  return !!device?.[1] && !req.url.includes('/accumulators');
}

function linkedDeviceIds(body: unknown): number[] {
  const links = (Array.isArray(body) ? body : [body]) as Partial<ParsedPermission>[];
  const ids = new Set<number>();
  for (const l of links) {
    if (!l || typeof l !== 'object') continue;
    if (l.ownerType === 'device' && typeof l.ownerId === 'number') ids.add(l.ownerId);
    if (l.propertyType === 'device' && typeof l.propertyId === 'number') ids.add(l.propertyId);
  }
  return [...ids];
}

/** The devices a successful write request changed (none for anything else). */
export function changedDevices(req: FastifyRequest, status: number, payload: unknown): number[] {
  if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'DELETE') return [];
  if (status < 200 || status >= 300) return [];
  const device = DEVICE_URL.exec(req.url);
  if (device && req.method !== 'DELETE') {
    if (device[1]) return [Number(device[1])];
    if (req.method !== 'POST' || typeof payload !== 'string') return [];
    try {
      const id = (JSON.parse(payload) as { id?: unknown }).id;
      return typeof id === 'number' && id > 0 ? [id] : [];
    } catch {
      return [];
    }
  }
  if (PERMISSION_URL.test(req.url)) return linkedDeviceIds(req.body);
  return [];
}

/**
 * The devices a successful write changed alone, their rows and the links naming them (a device created, edited or
 * its accumulators set: what the live cache may read again by itself, cache.ts invalidateDevices); null for any
 * other write (a device deleted, a link, anything else), which the whole cache is read again after.
 */
export function devicesOnlyWrite(req: FastifyRequest, status: number, payload: unknown): number[] | null {
  if (req.method !== 'POST' && req.method !== 'PUT') return null;
  if (!DEVICE_URL.test(req.url)) return null;
  const ids = changedDevices(req, status, payload);
  return ids.length ? ids : null;
}

/** The live cache told of a successful or refused write: its devices alone (answered), or everything (null). */
export function invalidateAfter(
  live: LiveCore,
  req: FastifyRequest,
  status: number,
  payload: unknown,
): number[] | null {
  const ids = devicesOnlyWrite(req, status, payload);
  if (ids) live.cache.invalidateDevices(ids);
  else live.invalidate();
  return ids;
}

/** Device ids per cluster message: a bulk link of thousands of devices stays under NOTIFY's 8000 bytes. */
const IDS_PER_MESSAGE = 500;

/** Tells the other processes (nothing on SQLite): the changed devices, and whether sight may have changed. */
function relay(ctx: AppContext, ids: number[], sight: boolean): void {
  if (!ids.length) {
    ctx.cluster.publish({ t: 'devices', ids, sight });
    return;
  }
  for (let i = 0; i < ids.length; i += IDS_PER_MESSAGE)
    ctx.cluster.publish({ t: 'devices', ids: ids.slice(i, i + IDS_PER_MESSAGE), sight: sight && i === 0 });
}

/**
 * The live cache read again if it is stale, on the pool on PostgreSQL (issue #30, session 32: the main thread never
 * waits for it); while the store cannot be read, the cache's last rows (as deviceJson serves them).
 */
async function readableCache(live: LiveCore): Promise<LiveCache> {
  try {
    return await live.cache.freshAsync();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    return live.cache;
  }
}

/** What another process relayed: its changed devices and sight changes to this process's sockets. */
async function applyRelayed(live: LiveCore, hub: SocketHub, ids: number[], sight: boolean): Promise<void> {
  if (!hub.clientCount) return;
  // the cache reads the other process's write (its 'changed' message may not be applied yet): a device's own write
  // (no sight change) reads those devices alone
  if (ids.length && !sight) live.cache.invalidateDevices(ids);
  else live.invalidate();
  const cache = await readableCache(live);
  if (sight) await hub.pushSightChangesSinceSent(cache);
  for (const id of ids) {
    const device = live.deviceJson(id);
    if (device) hub.pushDevice(device);
  }
}

export function registerDeviceChanges(
  app: FastifyInstance,
  ctx: AppContext,
  live: LiveCore,
  hub: SocketHub,
): void {
  // the sight before the write (null: no socket here, but the other processes may have some)
  const before = new WeakMap<FastifyRequest, Map<number, ReadonlySet<number>> | null>();
  app.addHook('preHandler', async (req) => {
    if (mayChangeSight(req)) before.set(req, hub.clientCount ? hub.sight(await readableCache(live)) : null);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const sight = before.get(req);
    const done = reply.statusCode >= 200 && reply.statusCode < 300;
    if (sight && done) {
      invalidateAfter(live, req, reply.statusCode, payload);
      await hub.pushSightChanges(sight, await readableCache(live));
    }
    const ids = changedDevices(req, reply.statusCode, payload);
    const sightMayChange = done && before.has(req);
    if (ids.length || sightMayChange) relay(ctx, ids, sightMayChange);
    if (!ids.length) return payload;
    // the device and who sees it as they are now (already reloaded after a sight change); deviceJson reads it as is
    if (!sight || !done) invalidateAfter(live, req, reply.statusCode, payload);
    await readableCache(live);
    for (const id of ids) {
      const device = live.deviceJson(id);
      if (device) hub.pushDevice(device);
    }
    return payload;
  });
  ctx.cluster.subscribe((m) => {
    if (m.t === 'devices')
      applyRelayed(live, hub, m.ids, m.sight).catch((err: unknown) =>
        ctx.log.warn({ err }, 'cluster: devices changed by another process not pushed'),
      );
  });
}
