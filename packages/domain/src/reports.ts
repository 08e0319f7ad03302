// SPEC §7/§9 reports: preset ranges in a time zone, telemetry ranges, list paging defaults and the query string
// sent to /api/reports/*.
import { REPORT_DEFAULT_LIMIT, REPORT_DEFAULT_PAGE } from './constants.ts';

export const REPORT_RANGES = ['today', 'yesterday', 'last7', 'last30', 'last90'] as const;
export type ReportRange = (typeof REPORT_RANGES)[number];
export const TELEMETRY_RANGES = ['24h', '7d', '30d'] as const;
export type TelemetryRange = (typeof TELEMETRY_RANGES)[number];
export const REPORT_TYPES = ['route', 'events', 'summary', 'trips', 'stops'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** Accept header that selects the Excel variant of a report. */
export const XLSX_ACCEPT = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the zone id. */
export function isValidTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

export interface Ymd {
  y: number;
  m: number;
  d: number;
}

export function zonedParts(ms: number, tz: string): Ymd & { h: number; mi: number; s: number } {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return { y: p.year, m: p.month, d: p.day, h: p.hour, mi: p.minute, s: p.second };
}

/** Offset of `tz` from UTC at instant `ms`, in ms (e.g. -3 h for America/Sao_Paulo). */
export function timeZoneOffset(ms: number, tz: string): number {
  const p = zonedParts(ms, tz);
  const asUtc = Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of local midnight starting day y-m-d in `tz` (DST-safe). */
export function zonedMidnight(day: Ymd, tz: string): number {
  const guess = Date.UTC(day.y, day.m - 1, day.d);
  const off1 = timeZoneOffset(guess, tz);
  let t = guess - off1;
  const off2 = timeZoneOffset(t, tz);
  if (off2 !== off1) t = guess - off2;
  return t;
}

export function addDays(day: Ymd, n: number): Ymd {
  const d = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
}

export interface IsoRange {
  from: string;
  to: string;
}

/**
 * Preset range in the user's/server's time zone. today / yesterday are whole local days; lastN covers N calendar
 * days ending with today (today and the N−1 before it). `to` is the last millisecond of the period.
 */
export function reportRange(range: ReportRange, now: Date | number, timeZone = 'UTC'): IsoRange {
  const tz = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const p = zonedParts(nowMs, tz);
  const today: Ymd = { y: p.y, m: p.m, d: p.d };
  const span = (first: Ymd, daysCount: number): IsoRange => ({
    from: new Date(zonedMidnight(first, tz)).toISOString(),
    to: new Date(zonedMidnight(addDays(first, daysCount), tz) - 1).toISOString(),
  });
  switch (range) {
    case 'today':
      return span(today, 1);
    case 'yesterday':
      return span(addDays(today, -1), 1);
    case 'last7':
      return span(addDays(today, -6), 7);
    case 'last30':
      return span(addDays(today, -29), 30);
    case 'last90':
      return span(addDays(today, -89), 90);
  }
}

/**
 * The first and last local days of a period in `tz` as YYYY-MM-DD (an export's file name): "today" in São Paulo
 * ends at 02:59:59.999Z of the next UTC day, which is still today there.
 */
export function periodDays(range: IsoRange, timeZone = 'UTC'): { first: string; last: string } {
  const tz = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const ymd = (iso: string) => {
    const p = zonedParts(Date.parse(iso), tz);
    return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
  };
  return { first: ymd(range.from), last: ymd(range.to) };
}

/** Telemetry ranges end now: 24 h, 7 d, 30 d back. */
export function telemetryRange(range: TelemetryRange, now: Date | number): IsoRange {
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const back = range === '24h' ? DAY_MS : range === '7d' ? 7 * DAY_MS : 30 * DAY_MS;
  return { from: new Date(nowMs - back).toISOString(), to: new Date(nowMs).toISOString() };
}

export interface ReportQuery {
  deviceIds?: readonly number[];
  groupIds?: readonly number[];
  from: string | Date;
  to: string | Date;
  /** Event types; default allEvents. */
  types?: readonly string[];
  daily?: boolean;
}

/**
 * Query string of SPEC §7: repeated deviceId and groupId, type (allEvents unless types are given), from and to
 * as ISO strings, daily (false unless set).
 */
export function buildReportQuery(q: ReportQuery): string {
  const params = new URLSearchParams();
  for (const id of q.deviceIds ?? []) params.append('deviceId', String(id));
  for (const id of q.groupIds ?? []) params.append('groupId', String(id));
  const types = q.types && q.types.length > 0 ? q.types : ['allEvents'];
  for (const t of types) params.append('type', t);
  params.set('from', q.from instanceof Date ? q.from.toISOString() : q.from);
  params.set('to', q.to instanceof Date ? q.to.toISOString() : q.to);
  params.set('daily', String(q.daily ?? false));
  return params.toString();
}

/** Route load: /api/reports/route?deviceId&from&to (the export flag switches to the xlsx Accept header). */
export function routeLoadRequest(
  deviceId: number,
  from: string | Date,
  to: string | Date,
  exported = false,
): { path: string; accept: string } {
  const params = new URLSearchParams();
  params.set('deviceId', String(deviceId));
  params.set('from', from instanceof Date ? from.toISOString() : from);
  params.set('to', to instanceof Date ? to.toISOString() : to);
  return {
    path: `/api/reports/route?${params.toString()}`,
    accept: exported ? XLSX_ACCEPT : 'application/json',
  };
}

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
  pages: number;
}

/** Client-side paging of report lists: defaults page 1, limit 25; out-of-range pages are clamped. */
export function paginate<T>(
  items: readonly T[],
  page = REPORT_DEFAULT_PAGE,
  limit = REPORT_DEFAULT_LIMIT,
): Page<T> {
  const l = Number.isInteger(limit) && limit > 0 ? limit : REPORT_DEFAULT_LIMIT;
  const pages = Math.max(1, Math.ceil(items.length / l));
  const p = Math.min(pages, Math.max(1, Number.isInteger(page) ? page : REPORT_DEFAULT_PAGE));
  return { items: items.slice((p - 1) * l, p * l), page: p, limit: l, total: items.length, pages };
}
export * from './scheduledReports.ts';
