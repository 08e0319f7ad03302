// "Is this time inside the calendar?" for notification and geofence calendars (CONTRACT §3 Calendar, §9).
// Parses VEVENTs with DTSTART/DTEND or DURATION, UTC/floating/TZID times and all-day dates; the RRULE recurrence
// (every rule of RFC 5545: FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, …) is expanded by the rrule library,
// on the event's wall clock (local times written as UTC numbers, as rrule advises for zoned rules), and each
// occurrence is then placed in its time zone.
import rrule from 'rrule';

const { RRule } = rrule;
type Rule = InstanceType<typeof RRule>;

export interface VEvent {
  /** wall-clock start as a UTC-based number (fields of the local time), and its zone */
  startLocal: number;
  tz: string | null;
  durationMs: number;
  rrule: Record<string, string> | null;
  /** The recurrence, built once from `rrule` (undefined until first used, null when it cannot be read). */
  rule?: Rule | null;
  /** Wall-clock starts of the occurrences in [from, to], expanded once for a stretch of time (ingestion asks
   * about times that move slowly forward, so one expansion serves about a month of checks). */
  window?: { from: number; to: number; starts: number[] };
}

const DAY = 86_400_000;
/** The stretch of occurrences expanded at once around the asked time. */
const WINDOW_BEFORE = 7 * DAY;
const WINDOW_AFTER = 31 * DAY;

function parseIcsTime(value: string): { local: number; utc: boolean; date: boolean } | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) return null;
  const local = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  return { local, utc: !!m[7], date: m[4] === undefined };
}

function parseDuration(v: string): number {
  const m = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(v.trim());
  if (!m) return 0;
  const ms =
    ((+(m[2] ?? 0) * 7 + +(m[3] ?? 0)) * 24 * 3600 + +(m[4] ?? 0) * 3600 + +(m[5] ?? 0) * 60 + +(m[6] ?? 0)) *
    1000;
  return m[1] === '-' ? -ms : ms;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

/** One formatter per zone (building one costs far more than using it); null for an unknown zone. */
function zoneFormat(tz: string): Intl.DateTimeFormat | null {
  let f = zoneFormats.get(tz);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      f = null;
    }
    if (zoneFormats.size > 1000) zoneFormats.clear();
    zoneFormats.set(tz, f);
  }
  return f;
}

/** Offset (ms) of a time zone at a UTC instant. */
function tzOffset(tz: string, utc: number): number {
  const f = zoneFormat(tz);
  if (!f) return 0;
  const parts = f.formatToParts(new Date(utc));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - utc;
}

const toUtc = (local: number, tz: string | null) => {
  if (!tz) return local;
  const guess = local - tzOffset(tz, local);
  return local - tzOffset(tz, guess);
};

export function parseCalendar(base64: string): VEvent[] {
  let text: string;
  try {
    text = Buffer.from(base64, 'base64').toString('utf8');
  } catch {
    return [];
  }
  const lines = text
    .replace(/\r\n[ \t]/g, '')
    .replace(/\n[ \t]/g, '')
    .split(/\r?\n/);
  const events: VEvent[] = [];
  let cur: {
    start?: ReturnType<typeof parseIcsTime>;
    end?: ReturnType<typeof parseIcsTime>;
    tz: string | null;
    dur?: number;
    rrule?: Record<string, string>;
  } | null = null;
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const head = line.slice(0, colon).split(';');
    const name = head[0].toUpperCase();
    const value = line.slice(colon + 1);
    const params = Object.fromEntries(head.slice(1).map((p) => p.split('=') as [string, string]));
    if (name === 'BEGIN' && value.toUpperCase() === 'VEVENT') cur = { tz: null };
    else if (name === 'END' && value.toUpperCase() === 'VEVENT' && cur) {
      if (cur.start) {
        const dur =
          cur.end !== undefined && cur.end
            ? cur.end.local - cur.start.local
            : (cur.dur ?? (cur.start.date ? DAY : 0));
        events.push({
          startLocal: cur.start.local,
          tz: cur.start.utc ? null : cur.tz,
          durationMs: dur,
          rrule: cur.rrule ?? null,
        });
      }
      cur = null;
    } else if (cur && name === 'DTSTART') {
      cur.start = parseIcsTime(value);
      cur.tz = params.TZID ?? null;
    } else if (cur && name === 'DTEND') cur.end = parseIcsTime(value);
    else if (cur && name === 'DURATION') cur.dur = parseDuration(value);
    else if (cur && name === 'RRULE') {
      cur.rrule = Object.fromEntries(value.split(';').map((kv) => kv.split('=') as [string, string]));
    }
  }
  return events;
}

/** The rrule expansion of an event on its wall clock; null when the RRULE cannot be read. */
function ruleOf(e: VEvent): Rule | null {
  if (e.rule !== undefined) return e.rule;
  const r = e.rrule ?? {};
  const text = Object.entries(r)
    .filter(([k]) => k.toUpperCase() !== 'UNTIL')
    .map(([k, v]) => `${k}=${v}`)
    .join(';');
  try {
    const options = RRule.parseString(text);
    // UNTIL in UTC (RFC 5545's form when DTSTART has a TZID) bounds the real start; a floating one the wall clock
    const u = r.UNTIL ? parseIcsTime(r.UNTIL) : null;
    if (u) options.until = new Date(u.utc && e.tz ? u.local + tzOffset(e.tz, u.local) : u.local);
    e.rule = new RRule({ ...options, dtstart: new Date(e.startLocal), tzid: null });
  } catch {
    e.rule = null;
  }
  return e.rule;
}

/** The UTC start of the occurrence of `e` covering `t` (the latest when several do), or null. */
function eventStart(e: VEvent, t: number): number | null {
  const covers = (local: number) => {
    const start = toUtc(local, e.tz);
    return start <= t && t < start + e.durationMs ? start : null;
  };
  if (!e.rrule) return covers(e.startLocal);
  const rule = ruleOf(e);
  if (!rule) return covers(e.startLocal);
  // occurrences that started on the wall clock between (t − duration − a day) and (t + a day): a day either way
  // absorbs any zone offset
  const tLocal = t + (e.tz ? tzOffset(e.tz, t) : 0);
  const lo = tLocal - e.durationMs - DAY;
  const hi = tLocal + DAY;
  let w = e.window;
  if (!w || lo < w.from || hi > w.to) {
    const from = lo - WINDOW_BEFORE;
    const to = hi + WINDOW_AFTER;
    const starts = rule.between(new Date(from), new Date(to), true).map((d) => d.getTime());
    e.window = w = { from, to, starts };
  }
  for (let i = w.starts.length - 1; i >= 0; i--) {
    const local = w.starts[i];
    if (local > hi) continue;
    if (local < lo) break;
    const start = covers(local);
    if (start !== null) return start;
  }
  return null;
}

function eventActive(e: VEvent, t: number): boolean {
  return eventStart(e, t) !== null;
}

/** The occurrence (UTC start and end) covering `time`, the one that started last when several do; or null. */
export function occurrenceAt(events: VEvent[], time: number): { start: number; end: number } | null {
  let best: { start: number; end: number } | null = null;
  for (const e of events) {
    const start = eventStart(e, time);
    if (start !== null && (!best || start > best.start)) best = { start, end: start + e.durationMs };
  }
  return best;
}

/** Whether the time falls inside any of the parsed events. */
export function eventsActive(events: VEvent[], time: Date | number): boolean {
  const t = typeof time === 'number' ? time : time.getTime();
  return events.some((e) => eventActive(e, t));
}

/** Whether the time falls inside any event period of the calendar (base64 iCalendar). */
export function calendarActive(base64: string, time: Date | number): boolean {
  return eventsActive(parseCalendar(base64), time);
}
