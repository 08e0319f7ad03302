// Positions, exports, accumulators and single events (CONTRACT §4).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { escapeXml, isInsideArea, parseZonedDate, queryIdList, type Position } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { findEvent } from '../db/repos/events.ts';
import {
  deletePosition,
  deletePositionsBetween,
  findPositionAsync,
  positionHistory,
} from '../db/repos/positions.ts';
import { badRequest, denied, notFound } from '../errors.ts';
import { requireUser } from '../traccar/auth.ts';
import { canAccessDevice, checkRestriction, checkWrite } from '../traccar/access.ts';
import { canAccessDeviceAsync, linkedDeviceIdsAsync } from '../traccar/accessReads.ts';
import { edge, edgeValue } from '../edge.ts';
import type { LiveCore } from './ingest.ts';
import { eventFromRow, jsonText, positionFromRow, type EventDbRow, type PositionDbRow } from './json.ts';
import { RouteJsonReader } from './reports/routeJson.ts';
import { setLiveAccumulators } from './accumulators.ts';
import { zip } from './zip.ts';

/** report.maxPositions */
export const MAX_POSITIONS = 50_000;
const LATEST_MAX_AGE_MS = 90 * 24 * 3600 * 1000;

const idParam = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, c) => {
      if (v === undefined || v === '') return undefined;
      if (!/^\d{1,15}$/.test(v)) {
        c.addIssue({ code: 'custom', message: `${name}: invalid id "${v.slice(0, 30)}"` });
        return z.NEVER;
      }
      return Number(v);
    });

const dateParam = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, c) => {
      if (v === undefined || v === '') return undefined;
      const d = parseZonedDate(v);
      if (!d) {
        c.addIssue({
          code: 'custom',
          message: `${name}: invalid date "${v.slice(0, 40)}" (expected ISO-8601 with zone)`,
        });
        return z.NEVER;
      }
      return d;
    });

const positionsQuery = z.object({
  deviceId: idParam('deviceId'),
  from: dateParam('from'),
  to: dateParam('to'),
  geofenceId: idParam('geofenceId'),
  id: queryIdList,
});

/** A `/:id` path id as these routes always parsed it (400 `id: invalid id`; 0 is not found). */
const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, 'invalid id')
    .transform(Number),
});

const accumulatorsBody = z.object({
  deviceId: z.number().int().min(0).optional(),
  totalDistance: z.number().finite().min(0).nullable().optional(),
  hours: z.number().finite().min(0).nullable().optional(),
});

export async function registerPositionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  live: LiveCore,
): Promise<void> {
  const sql = ctx.store.sql;
  const routeJson = new RouteJsonReader(sql);

  const checkDevice = async (user: Awaited<ReturnType<typeof requireUser>>, deviceId: number) => {
    if (!(await live.cache.freshAsync()).device(deviceId) || !(await canAccessDevice(ctx, user, deviceId))) {
      throw denied('Device access denied');
    }
  };
  /** checkDevice with the device's audience read on the read pool (the reads of GET /api/positions). */
  const checkDeviceRead = async (user: Awaited<ReturnType<typeof requireUser>>, deviceId: number) => {
    if (
      !(await live.cache.freshAsync()).device(deviceId) ||
      !(await canAccessDeviceAsync(ctx, user, deviceId))
    ) {
      throw denied('Device access denied');
    }
  };

  const range = async (deviceId: number, from: Date, to: Date, geofenceId?: number): Promise<Position[]> => {
    const history = await positionHistory(sql, deviceId, from.toISOString(), to.toISOString(), MAX_POSITIONS);
    let rows = (history as PositionDbRow[]).map(positionFromRow);
    if (geofenceId !== undefined) {
      const g = (await live.cache.freshAsync()).geofences.get(geofenceId);
      if (!g?.shape) throw badRequest('geofenceId: unknown geofence');
      const pd = Number(g.attrs.polylineDistance);
      rows = rows.filter((p) => isInsideArea(g.shape!, p, Number.isFinite(pd) && pd > 0 ? pd : undefined));
    }
    return rows;
  };

  const historyArgs = (q: z.output<typeof positionsQuery>) => {
    if (q.deviceId === undefined) throw badRequest('deviceId is required');
    if (!q.from || !q.to) throw badRequest('from and to are required');
    if (q.from > q.to) throw badRequest('from must not be after to');
    return { deviceId: q.deviceId, from: q.from, to: q.to, geofenceId: q.geofenceId };
  };

  const positionsEdge = edge({ query: positionsQuery, need: 'table' });

  app.get('/api/positions', positionsEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const q = edgeValue(positionsQuery, req.query);
    await live.settle(); // what is queued stored first (PostgreSQL: awaited, never the synchronous store)
    if (q.id.length) {
      await checkRestriction(ctx, user, 'disableReports');
      const out: Position[] = [];
      for (const id of q.id) {
        const row = (await findPositionAsync(sql, id)) as PositionDbRow | undefined;
        if (!row) continue;
        await checkDeviceRead(user, row.deviceId);
        out.push(positionFromRow(row));
      }
      return out;
    }
    if (q.deviceId !== undefined) {
      await checkDeviceRead(user, q.deviceId);
      if (q.from || q.to) {
        await checkRestriction(ctx, user, 'disableReports');
        const a = historyArgs(q);
        if (a.geofenceId !== undefined) return range(a.deviceId, a.from, a.to, a.geofenceId);
        // the period's positions as JSON texts written by the query (reports/routeJson.ts), `to` included
        const upper = new Date(a.to.getTime() + 1).toISOString();
        const texts = await routeJson.texts(a.deviceId, a.from.toISOString(), upper, MAX_POSITIONS);
        return reply.type('application/json; charset=utf-8').send(`[${texts.join(',')}]`);
      }
      const last = await live.latestPositionAsync(q.deviceId);
      return reply.type('application/json; charset=utf-8').send(last ? `[${jsonText(last)}]` : '[]');
    }
    // latest positions are shared, immutable objects: their JSON text is cached
    const since = Date.now() - LATEST_MAX_AGE_MS;
    const out: string[] = [];
    const linked = await linkedDeviceIdsAsync(ctx, user.id);
    await live.cache.freshAsync();
    await live.loadLatestAsync(linked); // on the pool where memory lacks them (issue #30, session 35)
    for (const id of linked) {
      const p = live.latestInMemory(id);
      if (p && Date.parse(p.fixTime) >= since) out.push(jsonText(p));
    }
    return reply.type('application/json; charset=utf-8').send(`[${out.join(',')}]`);
  });

  app.delete('/api/positions/:id', edge({ params: idParams, need: 'table' }), async (req, reply) => {
    const user = await requireUser(ctx, req);
    const { id } = edgeValue(idParams, req.params);
    const row = await findPositionAsync(sql, id);
    if (!row) throw notFound();
    await checkDevice(user, row.deviceId);
    await checkRestriction(ctx, user, 'readonly');
    await deletePosition(sql, id);
    reply.status(204).send();
  });

  app.delete('/api/positions', positionsEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const a = historyArgs(edgeValue(positionsQuery, req.query));
    await checkDevice(user, a.deviceId);
    await checkRestriction(ctx, user, 'readonly');
    await live.settle();
    await deletePositionsBetween(sql, a.deviceId, a.from.toISOString(), a.to.toISOString());
    reply.status(204).send();
  });

  const exporter = (
    ext: 'csv' | 'gpx' | 'kml' | 'kmz',
    type: string,
    render: (ps: Position[], name: string) => string | Buffer,
  ) => {
    app.get(`/api/positions/${ext}`, positionsEdge, async (req, reply: FastifyReply) => {
      const user = await requireUser(ctx, req);
      const a = historyArgs(edgeValue(positionsQuery, req.query));
      await checkDevice(user, a.deviceId);
      await checkRestriction(ctx, user, 'disableReports');
      await live.settle();
      const name = live.cache.device(a.deviceId)?.name ?? String(a.deviceId);
      reply
        .header('content-disposition', `attachment; filename=positions.${ext}`)
        .type(type)
        .send(render(await range(a.deviceId, a.from, a.to, a.geofenceId), name));
    });
  };

  exporter('csv', 'text/csv; charset=utf-8', (ps) => {
    const head = 'id,deviceId,fixTime,latitude,longitude,altitude,speed,course,accuracy,address,attributes';
    const cell = (v: unknown) => {
      const s = v === null || v === undefined ? '' : String(v);
      return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const lines = ps.map((p) =>
      [
        p.id,
        p.deviceId,
        p.fixTime,
        p.latitude,
        p.longitude,
        p.altitude,
        p.speed,
        p.course,
        p.accuracy,
        p.address,
        JSON.stringify(p.attributes),
      ]
        .map(cell)
        .join(','),
    );
    return [head, ...lines].join('\n') + '\n';
  });

  exporter('gpx', 'application/gpx+xml', (ps, name) => {
    const pts = ps
      .map(
        (p) =>
          `<trkpt lat="${p.latitude}" lon="${p.longitude}"><ele>${p.altitude}</ele><time>${new Date(p.fixTime).toISOString()}</time></trkpt>`,
      )
      .join('');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Rastro" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>${escapeXml(name)}</name><trkseg>${pts}</trkseg></trk></gpx>\n`;
  });

  const kml = (ps: Position[], name: string) => {
    const coords = ps.map((p) => `${p.longitude},${p.latitude},${p.altitude}`).join(' ');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${escapeXml(name)}</name><Placemark><name>${escapeXml(name)}</name><LineString><extrude>1</extrude><tessellate>1</tessellate><altitudeMode>absolute</altitudeMode><coordinates>${coords}</coordinates></LineString></Placemark></Document></kml>\n`;
  };
  exporter('kml', 'application/vnd.google-earth.kml+xml', kml);
  // KMZ: the same KML zipped as doc.kml (what Google Earth opens)
  exporter('kmz', 'application/vnd.google-earth.kmz', (ps, name) =>
    zip([{ name: 'doc.kml', data: kml(ps, name) }]),
  );

  const accumulatorsEdge = edge({ params: idParams, body: accumulatorsBody, need: 'table' });
  app.put('/api/devices/:id/accumulators', accumulatorsEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const { id: deviceId } = edgeValue(idParams, req.params);
    const body = edgeValue(accumulatorsBody, req.body);
    await checkDevice(user, deviceId);
    await checkWrite(ctx, user, 'device');
    if (!(await setLiveAccumulators(live, sql, deviceId, body.totalDistance, body.hours)))
      throw badRequest('Device has no position');
    reply.status(204).send();
  });

  app.get('/api/events/:id', edge({ params: idParams, need: 'table' }), async (req) => {
    const user = await requireUser(ctx, req);
    const { id } = edgeValue(idParams, req.params);
    const row = (await findEvent(sql, id)) as EventDbRow | undefined;
    if (!row) throw notFound();
    if (!(await canAccessDeviceAsync(ctx, user, row.deviceId))) throw denied('Device access denied');
    return eventFromRow(row);
  });
}
