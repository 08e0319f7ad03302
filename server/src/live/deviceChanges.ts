// Device changes made through the API reach other users' open pages (issue #28): after a device is created or
// changed (PUT /api/devices/{id}, its accumulators) or linked to or unlinked from anything (/api/permissions with a
// deviceId), every socket of the users who see it now gets the device as Traccar's `devices` update, within the
// socket's tick. The pages apply it as they apply a status change (web stores/live.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ParsedPermission } from '@rastro/domain';
import type { LiveCore } from './ingest.ts';
import type { SocketHub } from './socket.ts';

const DEVICE_URL = /^\/api\/devices(?:\/(\d+)(?:\/accumulators)?)?\/?(?:\?|$)/;
const PERMISSION_URL = /^\/api\/permissions(?:\/bulk)?\/?(?:\?|$)/;

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

export function registerDeviceChanges(app: FastifyInstance, live: LiveCore, hub: SocketHub): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const ids = changedDevices(req, reply.statusCode, payload);
    if (!ids.length) return payload;
    live.invalidate(); // deviceJson reloads the cache: the device and who sees it as they are now
    for (const id of ids) {
      const device = live.deviceJson(id);
      if (device) hub.pushDevice(device);
    }
    return payload;
  });
}
