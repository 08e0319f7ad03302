// GET /{ns}/route?deviceId&from&to[&after][&limit]: one device's route in pages, for the history screen to draw
// a long route as it arrives (issue #31). A page is a JSON array of positions exactly as GET /api/reports/route
// gives them, in the same (fixTime, id) order, at most `limit` long (default 10,000, at most 50,000); the next
// page starts after the last position of this one (`after=<its id>`), and a page shorter than `limit` is the
// last. Pages have no overall cap: 100,000 positions of one device are two pages of 50,000 or ten of 10,000, where
// Traccar's route stops at 50,000 per device (CONTRACT §4). The first page (no `after`) tells the extent of the
// whole period's route in the header X-Rastro-Route-Extent ("west,south,east,north"), so the history fits its
// view once, before the rest arrives. With format=rows a page holds the history's light rows instead (domain
// routePageRow: [id, fix time ms, latitude, longitude, speed, course, altitude, address]), same order and cursor.
// Same rules as the route report: reports not disabled
// for the caller, who must see the device (400 otherwise). Bad parameters: a translated 400 (route.pageQuery).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ROUTE_EXTENT_HEADER, ROUTE_ROWS_FORMAT, zonedDate } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { edge, edgeValue } from '../../edge.ts';
import { invalidInput } from '../../invalid.ts';
import { requireUser } from '../../traccar/auth.ts';
import { checkRestriction } from '../../traccar/access.ts';
import { getLive } from '../ingest.ts';
import { MAX_ROUTE_POSITIONS, type ReportData } from './data.ts';
import { reportDevices } from './scope.ts';

/** Positions in a page when the request gives no limit. */
const ROUTE_PAGE_DEFAULT = 10_000;

const positionId = z
  .string()
  .regex(/^[1-9]\d{0,14}$/)
  .transform(Number);

const routePageQuery = z
  .object({
    deviceId: positionId,
    from: zonedDate,
    to: zonedDate,
    after: positionId.optional(),
    limit: z
      .string()
      .regex(/^\d{1,6}$/)
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_ROUTE_POSITIONS)
      .optional(),
    format: z.literal(ROUTE_ROWS_FORMAT).optional(),
  })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), { path: ['from'] });

export function registerRoutePages(app: FastifyInstance, ctx: AppContext, data: ReportData): void {
  const live = getLive(ctx);
  const spec = edge({
    query: routePageQuery,
    need: { area: 'reports', action: 'view' },
    invalid: 'route.pageQuery',
  });
  app.get(`/${ctx.config.ns}/route`, spec, async (req, reply) => {
    const user = await requireUser(ctx, req);
    await checkRestriction(ctx, user, 'disableReports');
    const q = edgeValue(routePageQuery, req.query);
    const [device] = await reportDevices(ctx, live, user, { deviceId: [q.deviceId], groupId: [] });
    let texts: string[] = [];
    if (device) {
      const after = q.after === undefined ? null : await data.route.cursor(device.id, q.after);
      if (q.after !== undefined && !after)
        throw invalidInput(ctx, req, user, 'route.pageCursor', { id: q.after });
      const range = { from: Date.parse(q.from), to: Date.parse(q.to) };
      // `to` included, as the pages read it
      const lower = new Date(range.from).toISOString();
      const upper = new Date(range.to + 1).toISOString();
      const limit = q.limit ?? ROUTE_PAGE_DEFAULT;
      texts =
        q.format === ROUTE_ROWS_FORMAT
          ? await data.route.rows(device.id, lower, upper, limit, after)
          : await data.routePage(device.id, range, limit, after);
      const box = after ? null : await data.route.extent(device.id, lower, upper);
      if (box) reply.header(ROUTE_EXTENT_HEADER, box.join(','));
    }
    return reply.type('application/json; charset=utf-8').send(`[${texts.join(',')}]`);
  });
}
