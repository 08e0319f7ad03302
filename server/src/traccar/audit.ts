// Audit trail and statistics (CONTRACT §3 Action / Statistics, §13 /api/audit, /api/statistics; admin only).
// Actions are written by the core's own writes (objects, users, links, logins, server settings).
// Statistics are computed per UTC day from the store: stored positions (messages, devices, protocols),
// logins (active users) and the API request counter kept in request_stats.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatTraccarDate, zonedDate } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { checkAdmin } from './access.ts';
import { requireUser } from './auth.ts';
import { parse, query } from './http.ts';
import { parseAttributes } from './model.ts';

/** 'command': an engine command sent, queued, forced or refused (live/interlock.ts; objectType 'device'). */
export type ActionType = 'create' | 'edit' | 'remove' | 'link' | 'unlink' | 'login' | 'logout' | 'command';

/** Records one action of `userId` (request address kept when a request is given). */
export function logAction(
  ctx: AppContext,
  req: FastifyRequest | null,
  userId: number,
  actionType: ActionType,
  objectType: string | null,
  objectId: number,
  attributes: Record<string, unknown> = {},
): void {
  ctx.store.sqlite
    .prepare(
      `INSERT INTO actions (actionTime, address, userId, actionType, objectType, objectId, attributes)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      new Date().toISOString(),
      req?.ip ?? null,
      userId,
      actionType,
      objectType,
      objectId,
      JSON.stringify(attributes),
    );
}

const rangeQuery = z.object({ from: zonedDate, to: zonedDate });

/** Longest statistics period (days) answered at once. */
export const STATISTICS_MAX_DAYS = 366;

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function registerAudit(app: FastifyInstance, ctx: AppContext): void {
  const count = ctx.store.sqlite.prepare(
    `INSERT INTO request_stats (day, requests) VALUES (?, 1) ON CONFLICT(day) DO UPDATE SET requests = requests + 1`,
  );
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/api/')) count.run(dayOf(Date.now()));
  });

  app.get('/api/audit', async (req) => {
    checkAdmin(await requireUser(ctx, req));
    const q = parse(rangeQuery, query(req));
    if (q.from > q.to) throw badRequest('from must not be after to');
    const rows = ctx.store.sqlite
      .prepare(
        `SELECT a.*, u.email AS userEmail FROM actions a LEFT JOIN users u ON u.id = a.userId
         WHERE a.actionTime >= ? AND a.actionTime <= ? ORDER BY a.actionTime, a.id LIMIT 50000`,
      )
      .all(q.from, q.to) as Array<Record<string, unknown>>;
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

  app.get('/api/statistics', async (req) => {
    checkAdmin(await requireUser(ctx, req));
    const q = parse(rangeQuery, query(req));
    const from = Date.parse(q.from);
    const to = Date.parse(q.to);
    if (from > to) throw badRequest('from must not be after to');
    if (to - from > STATISTICS_MAX_DAYS * DAY_MS) throw badRequest('Time period exceeds the limit');
    const first = Math.floor(from / DAY_MS);
    const last = Math.floor(to / DAY_MS);
    const lo = dayOf(first * DAY_MS);
    const hi = dayOf((last + 1) * DAY_MS);
    const sql = ctx.store.sqlite;
    const positions = new Map(
      (
        sql
          .prepare(
            `SELECT substr(serverTime, 1, 10) AS day, COUNT(*) AS n, COUNT(DISTINCT deviceId) AS devices
             FROM positions WHERE serverTime >= ? AND serverTime < ? GROUP BY day`,
          )
          .all(lo, hi) as Array<{ day: string; n: number; devices: number }>
      ).map((r) => [r.day, r]),
    );
    const protocols = sql
      .prepare(
        `SELECT substr(serverTime, 1, 10) AS day, coalesce(protocol, 'unknown') AS protocol, COUNT(*) AS n
         FROM positions WHERE serverTime >= ? AND serverTime < ? GROUP BY day, protocol`,
      )
      .all(lo, hi) as Array<{ day: string; protocol: string; n: number }>;
    const users = new Map(
      (
        sql
          .prepare(
            `SELECT substr(actionTime, 1, 10) AS day, COUNT(DISTINCT userId) AS n FROM actions
             WHERE actionType = 'login' AND actionTime >= ? AND actionTime < ? GROUP BY day`,
          )
          .all(lo, hi) as Array<{ day: string; n: number }>
      ).map((r) => [r.day, r.n]),
    );
    const requests = new Map(
      (
        sql
          .prepare('SELECT day, requests FROM request_stats WHERE day >= ? AND day < ?')
          .all(lo, hi) as Array<{
          day: string;
          requests: number;
        }>
      ).map((r) => [r.day, r.requests]),
    );
    const out = [];
    for (let d = first; d <= last; d++) {
      const day = dayOf(d * DAY_MS);
      const p = positions.get(day);
      out.push({
        id: d,
        attributes: {},
        captureTime: formatTraccarDate(d * DAY_MS),
        activeUsers: users.get(day) ?? 0,
        activeDevices: p?.devices ?? 0,
        requests: requests.get(day) ?? 0,
        messagesReceived: p?.n ?? 0,
        messagesStored: p?.n ?? 0,
        mailSent: 0,
        smsSent: 0,
        geocoderRequests: 0,
        geolocationRequests: 0,
        protocols: Object.fromEntries(protocols.filter((r) => r.day === day).map((r) => [r.protocol, r.n])),
      });
    }
    return out;
  });
}
