// GET /api/reports/{route,events,trips,stops,summary,geofences,combined} (CONTRACT §4 report rules, §8 trips/stops/summary).
// route, events, trips, stops and summary also answer in Excel: with the xlsx Accept header, or at /{type}/xlsx;
// /{type}/mail sends that Excel file to the caller's e-mail address. /devices/{xlsx,mail}: the caller's devices
// with their latest state (Traccar's devices report, Excel only).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { queryIdList, XLSX_ACCEPT, zonedDate, type ReportType } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../errors.ts';
import { requireUser, type UserRow } from '../../traccar/auth.ts';
import { canSee, checkRestriction, checkSee } from '../../traccar/access.ts';
import { edge, edgeValue } from '../../edge.ts';
import { getGeocoder } from '../geocoder/index.ts';
import { mapBounded } from '../bounded.ts';
import { getLive } from '../ingest.ts';
import { tripParamsFrom } from '../motion.ts';
import {
  geofenceIntervals,
  segmentsFromEvents,
  segmentsFromPositions,
  splitDays,
  stopItem,
  summaryItem,
  tripItem,
  type ReportDevice,
  type ReportOptions,
  type Segment,
} from './compute.ts';
import { ReportData, type Range } from './data.ts';
import { registerDevicesReport } from './devicesReport.ts';
import { reportOutputs } from './outputs.ts';
import { registerRoutePages } from './routePages.ts';
import { list, reportDevices, reportTimeZone } from './scope.ts';

/** Whether the request asks for the Excel variant (Accept: the xlsx media type, as Traccar's clients send). */
export function wantsXlsx(req: FastifyRequest): boolean {
  return String(req.headers.accept ?? '').includes(XLSX_ACCEPT);
}

/** report.fastThreshold: longer periods read stored motion events instead of replaying positions. */
export const FAST_THRESHOLD_MS = 86_400_000;

const ids = queryIdList;
const strings = z.preprocess(list, z.array(z.string().max(100)).max(100));

const baseQuery = z
  .object({ deviceId: ids, groupId: ids, from: zonedDate, to: zonedDate })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });
const eventsQuery = z
  .object({ deviceId: ids, groupId: ids, from: zonedDate, to: zonedDate, type: strings, alarm: strings })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });
const geofencesQuery = z
  .object({ deviceId: ids, groupId: ids, geofenceId: ids, from: zonedDate, to: zonedDate })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });
const summaryQuery = z
  .object({
    deviceId: ids,
    groupId: ids,
    from: zonedDate,
    to: zonedDate,
    daily: z.enum(['true', 'false']).optional(),
  })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });

interface Resolved {
  user: UserRow;
  devices: ReportDevice[];
  range: Range;
}

export function registerReports(app: FastifyInstance, ctx: AppContext): void {
  const data = new ReportData(ctx);
  const live = getLive(ctx);
  registerRoutePages(app, ctx, data);

  /** Caller, restriction, and the devices of the request (scope.ts). */
  async function resolve(
    req: FastifyRequest,
    q: { deviceId: number[]; groupId: number[]; from: string; to: string },
  ) {
    const user = await requireUser(ctx, req);
    await checkRestriction(ctx, user, 'disableReports');
    const devices = await reportDevices(ctx, live, user, q);
    return { user, devices, range: { from: Date.parse(q.from), to: Date.parse(q.to) } } satisfies Resolved;
  }

  // options and tripParams read the cache as resolve() made it fresh (reportDevices) in the same request (options
  // reads it before its read of the drivers on the pool)
  async function options(): Promise<ReportOptions> {
    const cache = live.cache;
    const v = cache.serverAttrs['report.ignoreOdometer'];
    return { ignoreOdometer: v === true || v === 'true', drivers: await data.drivers() };
  }

  function tripParams(deviceId: number) {
    const cache = live.cache;
    const d = cache.device(deviceId);
    const groupAttrs = d ? cache.groupChain(d.groupId).map((g) => cache.groupAttrs.get(g)) : [];
    return tripParamsFrom(cache.deviceAttrs.get(deviceId), ...groupAttrs, cache.serverAttrs);
  }

  async function segments(device: ReportDevice, range: Range): Promise<Segment[]> {
    if (range.to - range.from > FAST_THRESHOLD_MS) {
      const ends = await data.firstLast(device.id, range);
      if (!ends) return [];
      return segmentsFromEvents(ends[0], ends[1], await data.motionEvents(device.id, range));
    }
    return segmentsFromPositions(await data.positions(device.id, range), tripParams(device.id));
  }

  /** Each device's answer, the devices read side by side on the read pool (at most a few at once), in order. */
  const perDevice = async <R>(devices: ReportDevice[], fn: (d: ReportDevice) => Promise<R[]>) =>
    (await mapBounded(devices, fn)).flat();

  const timeZone = (user: UserRow) => reportTimeZone(live, user);
  const { sendXlsx, mailXlsx } = reportOutputs(ctx, live);
  registerDevicesReport(app, ctx, live);

  /**
   * GET /api/reports/{type} (JSON, or Excel with the xlsx Accept header), /{type}/xlsx and /{type}/mail; the edge
   * parses the query with `query` (its 400 after the 401 and the permission gate).
   */
  function registerReport(
    type: ReportType,
    query: z.ZodType,
    build: (req: FastifyRequest) => Promise<{ user: UserRow; devices: ReportDevice[]; rows: unknown[] }>,
  ) {
    const reportEdge = edge({ query, need: 'table' });
    app.get(`/api/reports/${type}`, reportEdge, async (req, reply) => {
      const r = await build(req);
      return wantsXlsx(req) ? sendXlsx(reply, type, r.user, r.devices, r.rows) : r.rows;
    });
    app.get(`/api/reports/${type}/xlsx`, reportEdge, async (req, reply) => {
      const r = await build(req);
      return sendXlsx(reply, type, r.user, r.devices, r.rows);
    });
    app.get(`/api/reports/${type}/mail`, reportEdge, async (req, reply) =>
      mailXlsx(req, reply, type, await build(req)),
    );
  }

  const baseEdge = edge({ query: baseQuery, need: 'table' });
  const route = async (req: FastifyRequest) => {
    const { user, devices, range } = await resolve(req, edgeValue(baseQuery, req.query));
    const parts: string[] = [];
    for (const d of devices) for (const p of await data.routeJson(d.id, range)) parts.push(p);
    return { user, devices, json: `[${parts.join(',')}]` };
  };
  app.get('/api/reports/route', baseEdge, async (req, reply) => {
    const r = await route(req);
    if (wantsXlsx(req)) return sendXlsx(reply, 'route', r.user, r.devices, JSON.parse(r.json) as unknown[]);
    return reply.type('application/json; charset=utf-8').send(r.json);
  });
  app.get('/api/reports/route/xlsx', baseEdge, async (req, reply) => {
    const r = await route(req);
    return sendXlsx(reply, 'route', r.user, r.devices, JSON.parse(r.json) as unknown[]);
  });
  app.get('/api/reports/route/mail', baseEdge, async (req, reply) => {
    const r = await route(req);
    return mailXlsx(req, reply, 'route', { ...r, rows: JSON.parse(r.json) as unknown[] });
  });

  const events = async (req: FastifyRequest) => {
    const q = edgeValue(eventsQuery, req.query);
    const { user, devices, range } = await resolve(req, q);
    const types = new Set(q.type.filter((t) => t !== 'allEvents'));
    const alarms = new Set(q.alarm);
    const seen = new Map<string, boolean>();
    const visible = async (type: string, id: number) => {
      if (!id || user.administrator) return true;
      const key = `${type}:${id}`;
      let ok = seen.get(key);
      if (ok === undefined) seen.set(key, (ok = await canSee(ctx, user, type, id)));
      return ok;
    };
    const rows = await perDevice(devices, async (d) => {
      const kept = [];
      for (const e of await data.events(d.id, range)) {
        if (types.size && !types.has(e.type)) continue;
        if (alarms.size && e.type === 'alarm' && !alarms.has(String(e.attributes.alarm ?? ''))) continue;
        if ((await visible('geofence', e.geofenceId)) && (await visible('maintenance', e.maintenanceId)))
          kept.push(e);
      }
      return kept;
    });
    return { user, devices, rows };
  };
  registerReport('events', eventsQuery, events);

  app.get('/api/reports/geofences', edge({ query: geofencesQuery, need: 'table' }), async (req) => {
    const q = edgeValue(geofencesQuery, req.query);
    const { user, devices, range } = await resolve(req, q);
    for (const g of q.geofenceId) await checkSee(ctx, user, 'geofence', g);
    const wanted = new Set(q.geofenceId);
    return perDevice(devices, async (d) =>
      geofenceIntervals(d, await data.events(d.id, range), wanted, range.from, range.to),
    );
  });

  app.get('/api/reports/combined', baseEdge, async (req) => {
    const { user, devices, range } = await resolve(req, edgeValue(baseQuery, req.query));
    return mapBounded(devices, async (d) => {
      const events = [];
      for (const e of await data.events(d.id, range)) {
        if (e.positionId <= 0 || e.type === 'deviceMoving') continue;
        if (!e.geofenceId || user.administrator || (await canSee(ctx, user, 'geofence', e.geofenceId)))
          events.push(e);
      }
      return {
        deviceId: d.id,
        route: await data.coordinates(d.id, range),
        events,
        positions: await data.positionsByIds([...new Set(events.map((e) => e.positionId))]),
      };
    });
  });

  registerReport('trips', baseQuery, async (req) => {
    const { user, devices, range } = await resolve(req, edgeValue(baseQuery, req.query));
    const opts = await options();
    const rows = await perDevice(devices, async (d) =>
      (await segments(d, range)).filter((s) => s.kind === 'trip').map((s) => tripItem(d, s, opts)),
    );
    getGeocoder(ctx)?.fill(rows, [
      { address: 'startAddress', lat: 'startLat', lon: 'startLon' },
      { address: 'endAddress', lat: 'endLat', lon: 'endLon' },
    ]);
    return { user, devices, rows };
  });

  registerReport('stops', baseQuery, async (req) => {
    const { user, devices, range } = await resolve(req, edgeValue(baseQuery, req.query));
    const opts = await options();
    const rows = await perDevice(devices, async (d) =>
      (await segments(d, range)).filter((s) => s.kind === 'stop').map((s) => stopItem(d, s, opts)),
    );
    getGeocoder(ctx)?.fill(rows, [{ address: 'address', lat: 'latitude', lon: 'longitude' }]);
    return { user, devices, rows };
  });

  registerReport('summary', summaryQuery, async (req) => {
    const q = edgeValue(summaryQuery, req.query);
    const { user, devices, range } = await resolve(req, q);
    const opts = await options();
    const pieces: Range[] =
      q.daily === 'true'
        ? splitDays(range.from, range.to, timeZone(user)).map(([from, to], i, all) => ({
            from,
            to,
            toExclusive: i < all.length - 1,
          }))
        : [range];
    if (pieces.length > 3660) throw badRequest('Time period exceeds the limit');
    const rows = await perDevice(devices, async (d) => {
      const out = [];
      for (const piece of pieces) {
        const ends = await data.firstLast(d.id, piece);
        if (!ends) continue;
        const slow = piece.to - piece.from <= FAST_THRESHOLD_MS;
        out.push(summaryItem(d, ends[0], ends[1], slow ? await data.maxSpeed(d.id, piece) : 0, opts));
      }
      return out;
    });
    return { user, devices, rows };
  });
}
