// Autolink (SPEC §2 /autolink, /autolink/{id}; §7 POST /autolink; docs/autolink.md). Every report of an identifier
// no device has is remembered in `unknown_devices` (its last position kept; at most UNKNOWN_MAX identifiers, the
// oldest dropped). A user who may create devices then links it in one step:
//   GET  /{ns}/autolink?uniqueId=   what the server knows of that identifier (registered, seen, last report)
//   POST /{ns}/autolink {uniqueId, name}   creates the device as the caller through POST /api/devices (so the
//        device limit, read-only flags, duplicate check and the link to the caller are Traccar's own rules), then
//        stores the remembered last report as its first position, so it is on the map at once.
// The authorization hook requires the devices.create bit for both (packages/domain/src/apiPermissions.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { autolinkSchema, TRACKER_ID, type AutolinkStatus, type Device } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { deviceIdByUniqueIdAsync } from '../db/repos/devices.ts';
import {
  findUnknownDevice,
  forgetUnknownDevice,
  recordUnknownDevice,
  pruneUnknownDevices,
} from '../db/repos/unknownDevices.ts';
import { edge, edgeValue } from '../edge.ts';
import { ApiError } from '../errors.ts';
import { invalidInput } from '../invalid.ts';
import { requireUser } from '../traccar/auth.ts';
import type { IncomingPosition, LiveCore } from './ingest.ts';

export const UNKNOWN_MAX = 1000;

interface UnknownRow {
  uniqueId: string;
  protocol: string | null;
  firstSeen: string;
  lastSeen: string;
  reports: number;
  latitude: number | null;
  longitude: number | null;
  fixTime: string | null;
}

/** GET /{ns}/autolink?uniqueId=…: a tracker identifier (trimmed). */
const statusQuery = z.object({ uniqueId: z.string().trim().regex(TRACKER_ID, 'autolink.identifierInvalid') });

export function registerAutolink(app: FastifyInstance, ctx: AppContext, live: LiveCore): void {
  const ns = ctx.config.ns;
  const sql = ctx.store.sql;
  let writes = 0;
  // The reports' writes, one after another off the main thread (issue #30, session 33): an upsert, every 100th a
  // prune after it; a failure logged. status() waits for those on their way, so a report is seen once answered.
  let recording: Promise<void> = Promise.resolve();
  live.onUnknownDevice = (p: IncomingPosition) => {
    const uniqueId = (p.uniqueId ?? '').trim();
    if (!TRACKER_ID.test(uniqueId)) return;
    const valid =
      Number.isFinite(p.latitude) && Number.isFinite(p.longitude) && !(p.latitude === 0 && p.longitude === 0);
    const report = {
      uniqueId,
      protocol: p.protocol,
      now: new Date().toISOString(),
      latitude: valid ? p.latitude : null,
      longitude: valid ? p.longitude : null,
      fixTime: valid ? p.fixTime.toISOString() : null,
    };
    const prune = ++writes % 100 === 0;
    recording = recording.then(async () => {
      try {
        await recordUnknownDevice(sql, report);
        if (prune) await pruneUnknownDevices(sql, UNKNOWN_MAX);
      } catch (err) {
        ctx.log.warn({ err }, 'unknown device not recorded');
      }
    });
  };
  ctx.onClose.push(async () => {
    live.onUnknownDevice = null;
    await recording; // the reports' writes on their way land before the store closes
  });

  const status = async (uniqueId: string): Promise<AutolinkStatus> => {
    await recording;
    const [id, row]: [number | undefined, UnknownRow | undefined] = await Promise.all([
      deviceIdByUniqueIdAsync(sql, uniqueId),
      findUnknownDevice(sql, uniqueId),
    ]);
    const registered = id !== undefined;
    return {
      uniqueId,
      registered,
      seen: !!row,
      lastSeen: row?.lastSeen ?? null,
      reports: row?.reports ?? 0,
      protocol: row?.protocol ?? null,
    };
  };

  /** The caller's credentials, forwarded to POST /api/devices so the device is created as the caller. */
  const credentials = (req: FastifyRequest): Record<string, string> => {
    const h: Record<string, string> = {};
    if (typeof req.headers.cookie === 'string') h.cookie = req.headers.cookie;
    if (typeof req.headers.authorization === 'string') h.authorization = req.headers.authorization;
    if (typeof req.headers.origin === 'string') h.origin = req.headers.origin;
    if (typeof req.headers.host === 'string') h.host = req.headers.host;
    const lang = req.headers['accept-language'];
    if (typeof lang === 'string') h['accept-language'] = lang;
    return h;
  };

  // devices.create (the table); a bad identifier answers the catalogue's message (the edge's translated 400)
  const statusEdge = edge({ query: statusQuery, need: 'table', invalid: 'autolink.identifierInvalid' });
  app.get(`/${ns}/autolink`, statusEdge, async (req) => {
    await requireUser(ctx, req);
    return await status(edgeValue(statusQuery, req.query).uniqueId);
  });

  const linkEdge = edge({ body: autolinkSchema, need: 'table', invalid: 'autolink.identifierInvalid' });
  app.post(`/${ns}/autolink`, linkEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const { uniqueId, name } = edgeValue(autolinkSchema, req.body);
    if ((await status(uniqueId)).registered)
      throw new ApiError(
        409,
        invalidInput(ctx, req, user, 'autolink.registered').message,
        'WebApplicationException',
      );
    const created = await app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: { ...credentials(req), 'content-type': 'application/json' },
      payload: JSON.stringify({
        id: 0,
        name,
        uniqueId,
        attributes: {},
        groupId: 0,
        calendarId: 0,
        disabled: false,
      }),
    });
    if (created.statusCode !== 200) {
      // Traccar's own refusal (device limit, read-only, …) as it answered
      return reply
        .status(created.statusCode)
        .type(String(created.headers['content-type'] ?? 'text/plain; charset=utf-8'))
        .send(created.body);
    }
    const device = created.json() as Device;
    const row: UnknownRow | undefined = await findUnknownDevice(sql, uniqueId);
    if (row?.latitude != null && row.longitude != null && row.fixTime) {
      live.invalidate();
      await live.ingest({
        uniqueId,
        protocol: row.protocol ?? 'autolink',
        fixTime: new Date(row.fixTime),
        latitude: row.latitude,
        longitude: row.longitude,
        attributes: { autolink: true },
      });
    }
    await forgetUnknownDevice(sql, uniqueId);
    return reply.status(200).send(device);
  });
}
