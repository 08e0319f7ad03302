// Server statistics (CONTRACT §3 Statistics, GET /api/statistics): one row per finished day in the server's time
// zone, filed under that day's local midnight. Days are cut at local midnights (DST-safe); an SQL query can then
// bucket instants into local days with the UTC offsets in force, given as periods of constant offset.
import { addDays, isValidTimeZone, timeZoneOffset, zonedMidnight, zonedParts, type Ymd } from './reports.ts';

export interface LocalDay {
  /** Local date, YYYY-MM-DD. */
  day: string;
  /** First instant of the day (UTC ms). */
  start: number;
  /** First instant of the next day (UTC ms). */
  end: number;
}

const ymdText = (d: Ymd) =>
  `${String(d.y).padStart(4, '0')}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;

/** The zone to use: `tz` when Intl knows it, else UTC. */
export function statisticsZone(tz: string | null | undefined): string {
  return tz && isValidTimeZone(tz) ? tz : 'UTC';
}

/**
 * Finished local days whose start lies in [from, to]: a day is listed once it has ended (end ≤ now), so today and
 * future days have no row. At most `maxDays` rows.
 */
export function finishedDays(from: number, to: number, now: number, tz: string, maxDays = 366): LocalDay[] {
  const zone = statisticsZone(tz);
  const p = zonedParts(from, zone);
  let day: Ymd = { y: p.y, m: p.m, d: p.d };
  let start = zonedMidnight(day, zone);
  if (start < from) {
    day = addDays(day, 1);
    start = zonedMidnight(day, zone);
  }
  const out: LocalDay[] = [];
  while (start <= to && out.length < maxDays) {
    const next = addDays(day, 1);
    const end = zonedMidnight(next, zone);
    if (end > now) break;
    out.push({ day: ymdText(day), start, end });
    day = next;
    start = end;
  }
  return out;
}

export interface OffsetPeriod {
  /** First instant (UTC ms) of the period. */
  from: number;
  /** UTC offset in whole minutes (e.g. -180 for America/Sao_Paulo). */
  offsetMinutes: number;
}

/**
 * Periods of constant UTC offset covering [from, to): the first starts at `from`, each next one at the minute
 * the offset changes (found by bisection inside the day where it changes).
 */
export function offsetPeriods(from: number, to: number, tz: string): OffsetPeriod[] {
  const zone = statisticsZone(tz);
  const minutes = (ms: number) => Math.round(timeZoneOffset(ms, zone) / 60_000);
  const out: OffsetPeriod[] = [{ from, offsetMinutes: minutes(from) }];
  const STEP = 6 * 3_600_000;
  for (let a = from; a < to; a += STEP) {
    const b = Math.min(a + STEP, to);
    const current = out[out.length - 1].offsetMinutes;
    if (minutes(b) === current) continue;
    let lo = a;
    let hi = b;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (minutes(mid) === current) lo = mid;
      else hi = mid;
    }
    out.push({ from: hi - (hi % 60_000), offsetMinutes: minutes(hi) });
  }
  return out;
}

/** The first instant (UTC ms) of the local day of `ms` in `tz`. */
export function localDayStart(ms: number, tz: string): number {
  const zone = statisticsZone(tz);
  const p = zonedParts(ms, zone);
  return zonedMidnight({ y: p.y, m: p.m, d: p.d }, zone);
}

/**
 * The rows of GET /api/statistics: the finished local days of [from, to] (see finishedDays) from the local day of
 * the store's first data (`firstData`, UTC ms) on — none before the database existed, none when it has no data.
 */
export function statisticsDays(
  from: number,
  to: number,
  now: number,
  tz: string,
  firstData: number | null,
  maxDays = 366,
): LocalDay[] {
  if (firstData === null || !Number.isFinite(firstData)) return [];
  return finishedDays(Math.max(from, localDayStart(firstData, tz)), to, now, tz, maxDays);
}
