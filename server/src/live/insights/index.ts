// Fleet insights (issue #14, docs/insights.md): GET /{ns}/dashboard (the period's figures against the period before,
// per day and per vehicle) and GET /{ns}/scores (driver or vehicle ranking; Excel with the xlsx Accept header or at
// /{ns}/scores/xlsx). Same caller rules as the reports (reports bit, disableReports, the devices the caller sees);
// both sum the hours of activity (live/activity.ts), never the positions.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  fuelEstimate,
  HOUR_MS,
  INSIGHTS_MAX_DAYS,
  isNightHour,
  queryIdList,
  rankScores,
  scoreOf,
  scoreWeightsFrom,
  SCORE_SUBJECTS,
  XLSX_ACCEPT,
  zonedDate,
  type DashboardAnswer,
  type DashboardDevice,
  type DashboardTotals,
  type ScoreRow,
  type ScoresAnswer,
} from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { invalidInput } from '../../invalid.ts';
import { requestLanguage } from '../../refusal.ts';
import { requireUser, type UserRow } from '../../traccar/auth.ts';
import { checkRestriction } from '../../traccar/access.ts';
import { edge, edgeValue } from '../../edge.ts';
import type { LiveCore } from '../ingest.ts';
import { jsonDate, type ReportDevice } from '../reports/compute.ts';
import { reportDevices, reportTimeZone } from '../reports/scope.ts';
import { wantsXlsx } from '../reports/index.ts';
import type { KeyTotals } from '../../db/repos/insights.ts';
import { mapBounded } from '../bounded.ts';
import { emptyTotals, InsightsData } from './data.ts';
import { scoresWorkbook } from './xlsx.ts';

const DAY_MS = 86_400_000;
/** The sums a dashboard total adds up. */
const SUMMED = ['distance', 'drivingMs', 'idleMs'] as const;
const ids = queryIdList;
const period = {
  deviceId: ids,
  groupId: ids,
  from: zonedDate,
  to: zonedDate,
};
const dashboardQuery = z.object(period).refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
  message: 'from must not be after to',
  path: ['from'],
});
const scoresQuery = z
  .object({ ...period, by: z.enum(SCORE_SUBJECTS).default('driver') })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });

/** Local calendar day and hour of each UTC hour, in one time zone (memoised per request). */
function localClock(timeZone: string) {
  const fmt = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  });
  const memo = new Map<number, { day: string; hour: number }>();
  return (hour: number) => {
    let v = memo.get(hour);
    if (!v) {
      const parts = Object.fromEntries(fmt.formatToParts(hour * HOUR_MS).map((p) => [p.type, p.value]));
      v = { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24 };
      memo.set(hour, v);
    }
    return v;
  };
}

export function registerInsights(app: FastifyInstance, ctx: AppContext, live: LiveCore): void {
  const ns = ctx.config.ns;
  const data = new InsightsData(ctx.store.sql);

  async function scope(
    req: FastifyRequest,
    q: { deviceId: number[]; groupId: number[]; from: string; to: string },
  ) {
    const user = await requireUser(ctx, req);
    await checkRestriction(ctx, user, 'disableReports');
    const from = Date.parse(q.from);
    const to = Date.parse(q.to);
    if (to - from > INSIGHTS_MAX_DAYS * DAY_MS)
      throw invalidInput(ctx, req, user, 'validation.insightsPeriod', { days: INSIGHTS_MAX_DAYS });
    return { user, devices: await reportDevices(ctx, live, user, q), from, to };
  }

  async function totalsOf(
    devices: ReportDevice[],
    sums: KeyTotals[],
    from: number,
    to: number,
  ): Promise<DashboardTotals> {
    const sum = emptyTotals();
    for (const r of sums) for (const k of SUMMED) sum[k] += r[k];
    let stops = 0;
    let overspeedEvents = 0;
    for (const n of await mapBounded(devices, (d) => data.eventCounts(d.id, from, to))) {
      stops += n.stops;
      overspeedEvents += n.overspeeds;
    }
    return {
      distance: Math.round(sum.distance),
      drivingMs: sum.drivingMs,
      idleMs: sum.idleMs,
      stops,
      overspeedEvents,
      fuel: fuelEstimate(sum.distance, live.cache.serverAttrs.litersx100km), // as last read (scope() made it fresh)
    };
  }

  /** The hours of [from, to] that are night in a time zone. */
  function nightHours(clock: ReturnType<typeof localClock>, from: number, to: number): number[] {
    const out: number[] = [];
    for (let h = Math.floor(from / HOUR_MS); h <= Math.floor(to / HOUR_MS); h++)
      if (isNightHour(clock(h).hour)) out.push(h);
    return out;
  }

  const dashboardEdge = edge({ query: dashboardQuery, need: 'table' });
  app.get(`/${ns}/dashboard`, dashboardEdge, async (req): Promise<DashboardAnswer> => {
    const q = edgeValue(dashboardQuery, req.query);
    const { user, devices, from, to } = await scope(req, q);
    const timeZone = reportTimeZone(live, user);
    const clock = localClock(timeZone);
    const ids = devices.map((d) => d.id);
    const length = to - from;
    const prevTo = from - 1;
    const prevFrom = prevTo - length;
    // on the read pool (db/pool.ts), side by side: the period's sums, its distance per hour, the previous period's
    const [sums, byHour, previousSums] = await Promise.all([
      data.totals('device', ids, from, to),
      data.distanceByHour(ids, from, to),
      data.totals('device', ids, prevFrom, prevTo),
    ]);

    const perDevice = new Map<number, DashboardDevice>(
      devices.map((d) => [
        d.id,
        { deviceId: d.id, name: d.name, distance: 0, drivingMs: 0, idleMs: 0, utilisation: 0 },
      ]),
    );
    for (const r of sums) {
      const d = perDevice.get(Number(r.key));
      if (!d) continue;
      d.distance = r.distance;
      d.drivingMs = r.drivingMs;
      d.idleMs = r.idleMs;
    }
    const perDay = new Map<string, number>();
    for (let h = Math.floor(from / HOUR_MS); h <= Math.floor(to / HOUR_MS); h++) {
      const day = clock(h).day;
      if (!perDay.has(day)) perDay.set(day, 0);
    }
    for (const r of byHour) {
      const day = clock(r.hour).day;
      perDay.set(day, (perDay.get(day) ?? 0) + r.distance);
    }
    const periodMs = Math.max(1, to - from);
    for (const d of perDevice.values()) {
      d.distance = Math.round(d.distance);
      d.utilisation = Math.min(1, d.drivingMs / periodMs);
    }
    const status = { online: 0, offline: 0, never: 0 };
    for (const id of ids) {
      const dj = live.deviceJson(id);
      if (!dj?.lastUpdate) status.never++;
      else if (dj.status === 'online') status.online++;
      else status.offline++;
    }
    const list = [...perDevice.values()].sort(
      (a, b) => a.name.localeCompare(b.name) || a.deviceId - b.deviceId,
    );
    return {
      from: jsonDate(from),
      to: jsonDate(to),
      previousFrom: jsonDate(prevFrom),
      previousTo: jsonDate(prevTo),
      timeZone,
      deviceCount: ids.length,
      totals: await totalsOf(devices, sums, from, to),
      previous: await totalsOf(devices, previousSums, prevFrom, prevTo),
      status,
      days: [...perDay].map(([day, distance]) => ({ day, distance: Math.round(distance) })),
      devices: list,
      topIdle: list
        .filter((d) => d.idleMs > 0)
        .sort((a, b) => b.idleMs - a.idleMs || a.deviceId - b.deviceId)
        .slice(0, 10)
        .map((d) => d.deviceId),
    };
  });

  async function scores(req: FastifyRequest): Promise<{ user: UserRow; answer: ScoresAnswer }> {
    const q = edgeValue(scoresQuery, req.query);
    const { user, devices, from, to } = await scope(req, q);
    const clock = localClock(reportTimeZone(live, user));
    const weights = scoreWeightsFrom(live.cache.serverAttrs, ns); // as scope() made it fresh
    const names = new Map(devices.map((d) => [String(d.id), d.name]));
    const drivers = await data.driverNames();
    const sums = await data.totals(
      q.by,
      devices.map((d) => d.id),
      from,
      to,
      nightHours(clock, from, to),
    );
    const rows: ScoreRow[] = sums.map((t) => {
      const key = String(t.key);
      return {
        key,
        name: (q.by === 'driver' ? drivers.get(key) : names.get(key)) ?? key,
        distance: Math.round(t.distance),
        drivingMs: t.drivingMs,
        breakdown: scoreOf(t, weights),
      };
    });
    return {
      user,
      answer: { from: jsonDate(from), to: jsonDate(to), by: q.by, weights, rows: rankScores(rows) },
    };
  }

  const sendXlsx = async (req: FastifyRequest, user: UserRow, answer: ScoresAnswer) => {
    const cache = live.cache; // as last read (scope() made it fresh): formatting only
    return scoresWorkbook(answer, {
      lang: requestLanguage(ctx, req, user),
      userAttributes: cache.userAttrs.get(user.id) ?? {},
      serverAttributes: cache.serverAttrs,
    });
  };
  const scoresEdge = edge({ query: scoresQuery, need: 'table' });
  app.get(`/${ns}/scores`, scoresEdge, async (req, reply) => {
    const { user, answer } = await scores(req);
    if (!wantsXlsx(req)) return answer;
    return reply
      .type(XLSX_ACCEPT)
      .header('content-disposition', `attachment; filename="scores-${answer.by}.xlsx"`)
      .send(await sendXlsx(req, user, answer));
  });
  app.get(`/${ns}/scores/xlsx`, scoresEdge, async (req, reply) => {
    const { user, answer } = await scores(req);
    return reply
      .type(XLSX_ACCEPT)
      .header('content-disposition', `attachment; filename="scores-${answer.by}.xlsx"`)
      .send(await sendXlsx(req, user, answer));
  });
}
