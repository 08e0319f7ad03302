// Advanced logs (SPEC §2 user menu "Advanced Logs": administrators of a Plus server; §7 client A):
//   GET /{ns}/server/logs?from&to        every recorded action of the period
//   GET /{ns}/users/{id}/logs?from&to    actions done by that user or on that user
//   GET /{ns}/devices/{id}/logs?from&to  actions on that device (create, edit, remove, link, unlink)
// The source is Traccar's audit trail: the embedded store's `actions` table, or upstream `GET /api/audit` asked
// with the caller's own credentials in gateway mode. Rows are Traccar Action objects, newest first, at most 5,000, over at most 92 days.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatTraccarDate, zonedDate } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { ApiError, denied } from '../errors.ts';
import { upstreamOf } from '../gateway/upstream.ts';
import { credentials } from '../gateway/identity.ts';
import { edge, edgeValue } from '../edge.ts';
import { parseAttributes } from '../traccar/model.ts';
import { requireCaller } from './caller.ts';
import { actionsNewestFirst } from '../db/repos/audit.ts';

export interface ActionLog {
  id: number;
  attributes: Record<string, unknown>;
  actionTime: string;
  address: string | null;
  userId: number;
  userEmail: string | null;
  actionType: string;
  objectType: string | null;
  objectId: number;
}

/** Longest period answered at once (the "last 90 days" choice fits), and most rows returned. */
export const LOGS_MAX_DAYS = 92;
export const LOGS_MAX_ROWS = 5000;

const rangeQuery = z
  .object({ from: zonedDate, to: zonedDate })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= LOGS_MAX_DAYS * 86_400_000, {
    message: `the period must not exceed ${LOGS_MAX_DAYS} days`,
    path: ['to'],
  });
const idParam = z.object({ id: z.coerce.number().int('ids are whole numbers').positive('ids are positive') });

export type LogFilter = { kind: 'server' } | { kind: 'user'; id: number } | { kind: 'device'; id: number };

/** Whether an action belongs to the filter (users: by them or on them; devices: on them). */
export function matchesLog(a: Pick<ActionLog, 'userId' | 'objectType' | 'objectId'>, f: LogFilter): boolean {
  if (f.kind === 'server') return true;
  if (f.kind === 'user') return a.userId === f.id || (a.objectType === 'user' && a.objectId === f.id);
  return a.objectType === 'device' && a.objectId === f.id;
}

async function embeddedLogs(ctx: AppContext, from: string, to: string, f: LogFilter): Promise<ActionLog[]> {
  const rows = await actionsNewestFirst(ctx.store.sql, from, to, f, LOGS_MAX_ROWS);
  return rows.map((r) => ({
    id: Number(r.id),
    attributes: parseAttributes(r.attributes),
    actionTime: formatTraccarDate(r.actionTime) ?? String(r.actionTime),
    address: r.address ?? null,
    userId: Number(r.userId),
    userEmail: r.userEmail ?? null,
    actionType: String(r.actionType),
    objectType: r.objectType ?? null,
    objectId: Number(r.objectId),
  }));
}

async function gatewayLogs(
  ctx: AppContext,
  req: FastifyRequest,
  from: string,
  to: string,
  f: LogFilter,
): Promise<ActionLog[]> {
  const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
  const qs = new URLSearchParams({ from, to });
  let res: Response;
  try {
    res = await fetch(`${origin}${basePath}/api/audit?${qs}`, {
      headers: { ...(credentials(req) ?? {}), accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    ctx.log.warn({ err }, 'upstream audit request failed');
    throw new ApiError(502, 'Traccar server unreachable', 'WebApplicationException');
  }
  if (!res.ok)
    throw new ApiError(res.status === 401 ? 401 : 502, await res.text(), 'WebApplicationException');
  const list = (await res.json().catch(() => null)) as unknown;
  if (!Array.isArray(list)) throw new ApiError(502, 'Unexpected audit answer', 'WebApplicationException');
  return (list as ActionLog[])
    .filter((a) => a && typeof a === 'object' && matchesLog(a, f))
    .sort((a, b) => Date.parse(b.actionTime) - Date.parse(a.actionTime) || b.id - a.id)
    .slice(0, LOGS_MAX_ROWS);
}

export async function registerLogs(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const ns = ctx.config.ns;
  const handle = async (req: FastifyRequest, f: LogFilter) => {
    await requireCaller(ctx, req);
    if (ctx.config.edition !== 'plus') throw denied('Advanced logs need a Plus server');
    const q = edgeValue(rangeQuery, req.query);
    const from = new Date(Date.parse(q.from)).toISOString();
    const to = new Date(Date.parse(q.to)).toISOString();
    return ctx.config.mode === 'gateway'
      ? gatewayLogs(ctx, req, from, to, f)
      : embeddedLogs(ctx, from, to, f);
  };
  const id = (req: FastifyRequest) => edgeValue(idParam, req.params).id;
  // administrators (of a Plus server); a user's or a device's logs also need that area's view bit (the table)
  const serverEdge = edge({ query: rangeQuery, need: 'administrator' });
  const byIdEdge = edge({ params: idParam, query: rangeQuery, need: 'table', role: 'administrator' });
  app.get(`/${ns}/server/logs`, serverEdge, (req) => handle(req, { kind: 'server' }));
  app.get(`/${ns}/users/:id/logs`, byIdEdge, (req) => handle(req, { kind: 'user', id: id(req) }));
  app.get(`/${ns}/devices/:id/logs`, byIdEdge, (req) => handle(req, { kind: 'device', id: id(req) }));
}
