// Audit trail and statistics (CONTRACT §3 Action / Statistics, §13 /api/audit, /api/statistics; admin only).
// Actions are written by the core's own writes (objects, users, links, logins, server settings).
// Statistics are computed per finished day of the server's time zone from the store: stored positions
// (messages, devices, protocols), logins (active users) and the API request counter kept in request_stats.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatTraccarDate, offsetPeriods, statisticsDays, statisticsZone, zonedDate } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import type { SqlDatabase } from '../db/sql.ts';
import {
  actionsBetween,
  anyDataBefore,
  earliestData,
  insertActionAsync,
  loginsPerDay,
  positionsPerDay,
  protocolsPerDay,
  requestCounts,
} from '../db/repos/audit.ts';
import { edge, edgeValue } from '../edge.ts';
import { badRequest } from '../errors.ts';
import { serverAttribute } from './access.ts';
import { parseAttributes } from './model.ts';
import { requestCounter } from './requestCounter.ts';

/**
 * 'command': an engine command sent, queued, forced or refused (live/interlock.ts; objectType 'device').
 * 'liftRestriction': an edit of the server or a user that lifted restrictions (logLifted; attributes.lifted).
 * 'loginAs' / 'loginAsReturn': an administrator's session switched to user objectId (GET /api/session/{id};
 * attributes.by = who asked) and handed back (POST /{ns}/session/return); userId is the administrator.
 * 'alarm': a step of the monitoring queue (ext/alarms.ts; objectType 'alarm', attributes.step ack, assign, note or
 * resolve, with deviceId, note, outcome, userId as they apply).
 */
export type ActionType =
  | 'create'
  | 'edit'
  | 'remove'
  | 'link'
  | 'unlink'
  | 'login'
  | 'logout'
  | 'command'
  | 'liftRestriction'
  | 'loginAs'
  | 'loginAsReturn'
  | 'alarm';

const actionOf = (
  req: FastifyRequest | null,
  userId: number,
  actionType: ActionType,
  objectType: string | null,
  objectId: number,
  attributes: Record<string, unknown>,
) => ({
  actionTime: new Date().toISOString(),
  address: req?.ip ?? null,
  userId,
  actionType,
  objectType,
  objectId,
  attributes: JSON.stringify(attributes),
});

/**
 * Records one action of `userId` (request address kept when a request is given): one autocommitted INSERT without
 * the main thread waiting (issue #30, session 33). Inside a transaction use logActionIn with its handle.
 */
export async function logAction(
  ctx: AppContext,
  req: FastifyRequest | null,
  userId: number,
  actionType: ActionType,
  objectType: string | null,
  objectId: number,
  attributes: Record<string, unknown> = {},
): Promise<void> {
  await insertActionAsync(ctx.store.sql, actionOf(req, userId, actionType, objectType, objectId, attributes));
}

/**
 * logAction without the event loop waiting, written through `db`: the store, or a transaction's handle
 * (db/repos/query.ts inTransaction), so the action commits or rolls back with what it records.
 */
export async function logActionIn(
  db: SqlDatabase,
  req: FastifyRequest | null,
  userId: number,
  actionType: ActionType,
  objectType: string | null,
  objectId: number,
  attributes: Record<string, unknown> = {},
): Promise<void> {
  await insertActionAsync(db, actionOf(req, userId, actionType, objectType, objectId, attributes));
}

/**
 * Records that `userId`'s edit of the server or a user lifted restrictions (issue #27; the domain's
 * liftedRestrictions names them): one 'liftRestriction' action with `attributes.lifted`. Nothing when none.
 */
export async function logLifted(
  ctx: AppContext,
  req: FastifyRequest | null,
  userId: number,
  objectType: 'server' | 'user',
  objectId: number,
  lifted: readonly string[],
): Promise<void> {
  if (lifted.length) await logAction(ctx, req, userId, 'liftRestriction', objectType, objectId, { lifted });
}

const rangeQuery = z.object({ from: zonedDate, to: zonedDate });

/** Longest statistics period (days) answered at once. */
export const STATISTICS_MAX_DAYS = 366;

const DAY_MS = 86_400_000;
/** The request counter's bucket: the UTC hour, 'YYYY-MM-DDTHH'. */
const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

export function registerAudit(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/api/')) requestCounter(ctx).count(hourOf(Date.now()));
  });

  // administrators only: the gate refuses everyone else (401, 400 `Administrator access required`)
  const adminRange = edge({ query: rangeQuery, need: 'administrator' });
  app.get('/api/audit', adminRange, async (req) => {
    const q = edgeValue(rangeQuery, req.query);
    if (q.from > q.to) throw badRequest('from must not be after to');
    const rows = await actionsBetween(ctx.store.sql, q.from, q.to);
    return rows.map((r) => ({
      id: r.id,
      attributes: parseAttributes(r.attributes),
      actionTime: formatTraccarDate(r.actionTime as string),
      address: r.address ?? null,
      userId: r.userId,
      userEmail: r.userEmail ?? null,
      actionType: r.actionType,
      objectType: r.objectType ?? null,
      objectId: r.objectId,
    }));
  });

  app.get('/api/statistics', adminRange, async (req) => {
    const q = edgeValue(rangeQuery, req.query);
    const from = Date.parse(q.from);
    const to = Date.parse(q.to);
    if (from > to) throw badRequest('from must not be after to');
    if (to - from > STATISTICS_MAX_DAYS * DAY_MS) throw badRequest('Time period exceeds the limit');
    return await statisticsRows(ctx, from, to, Date.now());
  });
}

/** The server's time zone: its `timezone` attribute when valid, else this process's zone. */
export async function serverTimeZone(ctx: AppContext): Promise<string> {
  const tz = await serverAttribute(ctx, 'timezone');
  return statisticsZone(typeof tz === 'string' ? tz : Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** A stored time (ISO text, or a Date from PostgreSQL) in UTC ms; request_stats keys are UTC hours or days. */
function timeOf(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  const text = String(v);
  const ms = Date.parse(
    /^\d{4}-\d{2}-\d{2}$/.test(text)
      ? `${text}T00:00:00Z`
      : /^\d{4}-\d{2}-\d{2}T\d{2}$/.test(text)
        ? `${text}:00:00Z`
        : text,
  );
  return Number.isFinite(ms) ? ms : null;
}

/**
 * When the store's data begins (positions, actions, API requests): `from` itself when any of them is older (each
 * probe stops at its first row), else the earliest of them; null when the store has none.
 */
async function firstDataTime(ctx: AppContext, from: number): Promise<number | null> {
  const sql = ctx.store.sql;
  const iso = new Date(from).toISOString();
  if (await anyDataBefore(sql, iso)) return from;
  const firsts = (await earliestData(sql)).map((m) => timeOf(m)).filter((ms): ms is number => ms !== null);
  return firsts.length ? Math.min(...firsts) : null;
}

/**
 * One Statistics row per finished local day of the server's zone whose start lies in [from, to], from the day of
 * the store's first data on, each stamped at its local midnight.
 */
export async function statisticsRows(ctx: AppContext, from: number, to: number, now: number) {
  const counter = requestCounter(ctx);
  await counter.flush(); // the requests counted in memory so far
  await counter.settled(); // and the timer's writes on their way
  const tz = await serverTimeZone(ctx);
  const first = await firstDataTime(ctx, from);
  const days = statisticsDays(from, to, now, tz, first, STATISTICS_MAX_DAYS + 1);
  if (!days.length) return [];
  const lo = new Date(days[0].start).toISOString();
  const hi = new Date(days[days.length - 1].end).toISOString();
  const periods = offsetPeriods(days[0].start, days[days.length - 1].end, tz);
  const sql = ctx.store.sql;
  const [perDay, protocols, logins, hourRows] = await Promise.all([
    positionsPerDay(sql, periods, lo, hi),
    protocolsPerDay(sql, periods, lo, hi),
    loginsPerDay(sql, periods, lo, hi),
    requestCounts(sql, lo.slice(0, 10), hi.slice(0, 13)),
  ]);
  const positions = new Map(perDay.map((r) => [r.day, r]));
  const users = new Map(logins.map((r) => [r.day, r.n]));
  // Requests are counted per UTC hour ('YYYY-MM-DDTHH'; older rows per UTC day) and summed into local days.
  const requests = new Map<string, number>();
  for (const r of hourRows) {
    const at = Date.parse(r.day.length === 10 ? `${r.day}T00:00:00Z` : `${r.day}:00:00Z`);
    const day = days.find((d) => at >= d.start && at < d.end);
    if (day) requests.set(day.day, (requests.get(day.day) ?? 0) + r.requests);
  }
  return days.map((d) => {
    const p = positions.get(d.day);
    return {
      id: Math.floor(d.start / 60_000),
      attributes: {},
      captureTime: formatTraccarDate(d.start),
      activeUsers: users.get(d.day) ?? 0,
      activeDevices: p?.devices ?? 0,
      requests: requests.get(d.day) ?? 0,
      messagesReceived: p?.n ?? 0,
      messagesStored: p?.n ?? 0,
      mailSent: 0,
      smsSent: 0,
      geocoderRequests: 0,
      geolocationRequests: 0,
      protocols: Object.fromEntries(protocols.filter((r) => r.day === d.day).map((r) => [r.protocol, r.n])),
    };
  });
}
