// GET /api/reports/{route,events,trips,stops,summary,geofences,combined} (CONTRACT §4 report rules, §8 trips/stops/summary).
// route, events, trips, stops and summary also answer in Excel: with the xlsx Accept header, or at /{type}/xlsx;
// /{type}/mail sends that Excel file to the caller's e-mail address. /devices/{xlsx,mail}: the caller's devices
// with their latest state (Traccar's devices report, Excel only).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  formatMessage,
  queryIdList,
  XLSX_ACCEPT,
  zonedDate,
  type DeviceReportRow,
  type MessageKey,
  type ReportRow,
  type ReportType,
} from '@rastro/domain';
import { requestLanguage } from '../../refusal.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, badRequest } from '../../errors.ts';
import { invalidInput } from '../../invalid.ts';
import { getMailer } from '../../traccar/mailer.ts';
import { requireUser, type UserRow } from '../../traccar/auth.ts';
import { canSee, checkRestriction, checkSee } from '../../traccar/access.ts';
import { edge, edgeValue } from '../../edge.ts';
import { getGeocoder } from '../geocoder/index.ts';
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
import { registerRoutePages } from './routePages.ts';
import { list, reportDevices, reportTimeZone } from './scope.ts';
import { devicesWorkbook, reportWorkbook } from './xlsx.ts';

/** The report types' names in the messages (mail subject), as the Excel sheets name them. */
const REPORT_TYPE_KEYS: Partial<Record<ReportType, MessageKey>> = {
  route: 'reportSheets.route',
  events: 'reportSheets.events',
  trips: 'reportSheets.trips',
  stops: 'reportSheets.stops',
  summary: 'reportSheets.summary',
};

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
    checkRestriction(ctx, user, 'disableReports');
    const devices = reportDevices(ctx, live, user, q);
    return { user, devices, range: { from: Date.parse(q.from), to: Date.parse(q.to) } } satisfies Resolved;
  }

  function options(): ReportOptions {
    const cache = live.cache.fresh();
    const v = cache.serverAttrs['report.ignoreOdometer'];
    return { ignoreOdometer: v === true || v === 'true', drivers: data.drivers() };
  }

  function tripParams(deviceId: number) {
    const cache = live.cache.fresh();
    const d = cache.device(deviceId);
    const groupAttrs = d ? cache.groupChain(d.groupId).map((g) => cache.groupAttrs.get(g)) : [];
    return tripParamsFrom(cache.deviceAttrs.get(deviceId), ...groupAttrs, cache.serverAttrs);
  }

  function segments(device: ReportDevice, range: Range): Segment[] {
    if (range.to - range.from > FAST_THRESHOLD_MS) {
      const ends = data.firstLast(device.id, range);
      if (!ends) return [];
      return segmentsFromEvents(ends[0], ends[1], data.motionEvents(device.id, range));
    }
    return segmentsFromPositions(data.positions(device.id, range), tripParams(device.id));
  }

  const timeZone = (user: UserRow) => reportTimeZone(live, user);

  /** The .xlsx of a report, in the caller's units, time zone and language (as Traccar's xlsx reports). */
  function workbook(
    req: FastifyRequest,
    type: ReportType,
    user: UserRow,
    devices: ReportDevice[],
    rows: unknown[],
  ): Promise<Buffer> {
    const cache = live.cache.fresh();
    const names = new Map(devices.map((d) => [d.id, d.name]));
    return reportWorkbook(type, rows as ReportRow[], {
      userAttributes: cache.userAttrs.get(user.id) ?? {},
      serverAttributes: cache.serverAttrs,
      lang: requestLanguage(ctx, req, user),
      timeZone: timeZone(user),
      deviceName: (id) => names.get(id) ?? String(id),
    });
  }

  /** Excel answer of a report. */
  async function sendXlsx(
    reply: FastifyReply,
    type: ReportType,
    user: UserRow,
    devices: ReportDevice[],
    rows: unknown[],
  ) {
    const body = await workbook(reply.request, type, user, devices, rows);
    return reply
      .type(XLSX_ACCEPT)
      .header('content-disposition', `attachment; filename="report-${type}.xlsx"`)
      .send(body);
  }

  /**
   * GET /api/reports/{type}/mail (Traccar's "send by e-mail"): the .xlsx mailed to the caller's own address through
   * the mail adapter, then 204. Checked before any work: a caller without an e-mail address or a server without
   * mail gets a translated 400; a refused delivery is 502 with the reason.
   */
  async function mailXlsx(
    req: FastifyRequest,
    reply: FastifyReply,
    type: ReportType,
    r: { user: UserRow; devices: ReportDevice[]; rows: unknown[] },
  ) {
    return mailWorkbook(req, reply, r.user, REPORT_TYPE_KEYS[type] ?? null, type, () =>
      workbook(req, type, r.user, r.devices, r.rows),
    );
  }

  /** Mails the workbook `content` makes (attachment report-{file}.xlsx, subject naming `typeKey`), then 204. */
  async function mailWorkbook(
    req: FastifyRequest,
    reply: FastifyReply,
    user: UserRow,
    typeKey: MessageKey | null,
    file: string,
    make: () => Promise<Buffer>,
  ) {
    const mailer = getMailer(ctx);
    if (!mailer.configured) throw invalidInput(ctx, req, user, 'reportMail.notConfigured');
    if (!user.email.includes('@')) throw invalidInput(ctx, req, user, 'reportMail.noAddress');
    const lang = requestLanguage(ctx, req, user);
    const typeName = typeKey ? formatMessage(typeKey, lang) : file;
    const content = await make();
    let result: { sent: boolean; reason?: string };
    try {
      result = await mailer.send({
        to: user.email,
        subject: formatMessage('reportMail.subject', lang, { type: typeName.toLowerCase() }),
        body: formatMessage('reportMail.body', lang, { type: typeName.toLowerCase() }),
        attachments: [{ filename: `report-${file}.xlsx`, contentType: XLSX_ACCEPT, content }],
      });
    } catch (err) {
      ctx.log.warn({ err, userId: user.id, type: file }, 'report mail not sent');
      result = { sent: false, reason: err instanceof Error ? err.message : String(err) };
    }
    if (!result.sent)
      throw new ApiError(
        502,
        `Mail not sent: ${result.reason ?? 'unknown reason'}`,
        'WebApplicationException',
      );
    return reply.status(204).send();
  }

  /**
   * GET /api/reports/devices/{xlsx|mail} (Traccar's devices report): every device the caller sees (linked directly
   * or through groups, as their device list) with its group, status, last update and latest position, in the
   * caller's language, units and time zone. Refused like every report when reports are disabled.
   */
  async function devicesReport(req: FastifyRequest) {
    const user = await requireUser(ctx, req);
    checkRestriction(ctx, user, 'disableReports');
    const cache = live.cache.fresh();
    const rows: DeviceReportRow[] = [];
    for (const d of reportDevices(ctx, live, user, { deviceId: [], groupId: [] })) {
      const device = live.deviceJson(d.id);
      if (!device) continue;
      const p = live.latestPosition(d.id);
      rows.push({
        device,
        groupName: cache.groups.get(device.groupId)?.name ?? null,
        position: p ? { ...p, fixTime: new Date(p.fixTime).toISOString() } : null,
      });
    }
    return {
      user,
      make: () =>
        devicesWorkbook(rows, {
          userAttributes: cache.userAttrs.get(user.id) ?? {},
          serverAttributes: cache.serverAttrs,
          lang: requestLanguage(ctx, req, user),
          timeZone: timeZone(user),
          deviceName: (id) => cache.device(id)?.name ?? String(id),
        }),
    };
  }
  // the devices report takes no query: every device the caller sees (reports.view, the table)
  const devicesEdge = edge({ need: 'table' });
  app.get('/api/reports/devices/xlsx', devicesEdge, async (req, reply) => {
    const r = await devicesReport(req);
    return reply
      .type(XLSX_ACCEPT)
      .header('content-disposition', 'attachment; filename="report-devices.xlsx"')
      .send(await r.make());
  });
  app.get('/api/reports/devices/mail', devicesEdge, async (req, reply) => {
    const r = await devicesReport(req);
    return mailWorkbook(req, reply, r.user, 'reportSheets.devices', 'devices', r.make);
  });

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
    for (const d of devices) for (const p of data.routeJson(d.id, range)) parts.push(p);
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
    const visible = (type: string, id: number) => {
      if (!id || user.administrator) return true;
      const key = `${type}:${id}`;
      let ok = seen.get(key);
      if (ok === undefined) seen.set(key, (ok = canSee(ctx, user, type, id)));
      return ok;
    };
    const rows = devices.flatMap((d) =>
      data.events(d.id, range).filter((e) => {
        if (types.size && !types.has(e.type)) return false;
        if (alarms.size && e.type === 'alarm' && !alarms.has(String(e.attributes.alarm ?? ''))) return false;
        return visible('geofence', e.geofenceId) && visible('maintenance', e.maintenanceId);
      }),
    );
    return { user, devices, rows };
  };
  registerReport('events', eventsQuery, events);

  app.get('/api/reports/geofences', edge({ query: geofencesQuery, need: 'table' }), async (req) => {
    const q = edgeValue(geofencesQuery, req.query);
    const { user, devices, range } = await resolve(req, q);
    for (const g of q.geofenceId) checkSee(ctx, user, 'geofence', g);
    const wanted = new Set(q.geofenceId);
    return devices.flatMap((d) =>
      geofenceIntervals(d, data.events(d.id, range), wanted, range.from, range.to),
    );
  });

  app.get('/api/reports/combined', baseEdge, async (req) => {
    const { user, devices, range } = await resolve(req, edgeValue(baseQuery, req.query));
    return devices.map((d) => {
      const events = data
        .events(d.id, range)
        .filter(
          (e) =>
            e.positionId > 0 &&
            e.type !== 'deviceMoving' &&
            (!e.geofenceId || user.administrator || canSee(ctx, user, 'geofence', e.geofenceId)),
        );
      return {
        deviceId: d.id,
        route: data.coordinates(d.id, range),
        events,
        positions: data.positionsByIds([...new Set(events.map((e) => e.positionId))]),
      };
    });
  });

  registerReport('trips', baseQuery, async (req) => {
    const { user, devices, range } = await resolve(req, edgeValue(baseQuery, req.query));
    const opts = options();
    const rows = devices.flatMap((d) =>
      segments(d, range)
        .filter((s) => s.kind === 'trip')
        .map((s) => tripItem(d, s, opts)),
    );
    getGeocoder(ctx)?.fill(rows, [
      { address: 'startAddress', lat: 'startLat', lon: 'startLon' },
      { address: 'endAddress', lat: 'endLat', lon: 'endLon' },
    ]);
    return { user, devices, rows };
  });

  registerReport('stops', baseQuery, async (req) => {
    const { user, devices, range } = await resolve(req, edgeValue(baseQuery, req.query));
    const opts = options();
    const rows = devices.flatMap((d) =>
      segments(d, range)
        .filter((s) => s.kind === 'stop')
        .map((s) => stopItem(d, s, opts)),
    );
    getGeocoder(ctx)?.fill(rows, [{ address: 'address', lat: 'latitude', lon: 'longitude' }]);
    return { user, devices, rows };
  });

  registerReport('summary', summaryQuery, async (req) => {
    const q = edgeValue(summaryQuery, req.query);
    const { user, devices, range } = await resolve(req, q);
    const opts = options();
    const pieces: Range[] =
      q.daily === 'true'
        ? splitDays(range.from, range.to, timeZone(user)).map(([from, to], i, all) => ({
            from,
            to,
            toExclusive: i < all.length - 1,
          }))
        : [range];
    if (pieces.length > 3660) throw badRequest('Time period exceeds the limit');
    const out = [];
    for (const d of devices) {
      for (const piece of pieces) {
        const ends = data.firstLast(d.id, piece);
        if (!ends) continue;
        const slow = piece.to - piece.from <= FAST_THRESHOLD_MS;
        out.push(summaryItem(d, ends[0], ends[1], slow ? data.maxSpeed(d.id, piece) : 0, opts));
      }
    }
    return { user, devices, rows: out };
  });
}
