// "Is this time inside the calendar?" for notification and geofence calendars (CONTRACT §3 Calendar, §9).
// Supports VEVENTs with DTSTART/DTEND or DURATION, UTC/floating/TZID times, all-day dates, and RRULE
// FREQ=DAILY|WEEKLY|MONTHLY|YEARLY with INTERVAL, COUNT, UNTIL and BYDAY (weekly).

export interface VEvent {
  /** wall-clock start as a UTC-based number (fields of the local time), and its zone */
  startLocal: number;
  tz: string | null;
  durationMs: number;
  rrule: Record<string, string> | null;
}

const DAY = 86_400_000;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

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

/** Offset (ms) of a time zone at a UTC instant. */
function tzOffset(tz: string, utc: number): number {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(utc));
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    return (
      Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - utc
    );
  } catch {
    return 0;
  }
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

function occurrenceCovers(e: VEvent, local: number, index: number, t: number): boolean {
  if (e.rrule?.COUNT && index >= Number(e.rrule.COUNT)) return false;
  if (e.rrule?.UNTIL) {
    const u = parseIcsTime(e.rrule.UNTIL);
    // a UTC UNTIL (RFC 5545 form when DTSTART has a TZID) bounds the real start; a floating one the wall clock
    if (u && (u.utc ? toUtc(local, e.tz) : local) > u.local) return false;
  }
  const start = toUtc(local, e.tz);
  return start <= t && t < start + e.durationMs;
}

/** The UTC start of the occurrence of `e` covering `t`, or null. */
function eventStart(e: VEvent, t: number): number | null {
  const tLocal = t + (e.tz ? tzOffset(e.tz, t) : 0);
  if (!e.rrule) return occurrenceCovers(e, e.startLocal, 0, t) ? toUtc(e.startLocal, e.tz) : null;
  if (tLocal < e.startLocal - DAY) return null;
  const interval = Math.max(1, Number(e.rrule.INTERVAL ?? 1) || 1);
  const freq = (e.rrule.FREQ ?? '').toUpperCase();
  const back = Math.ceil(e.durationMs / DAY) + 1;
  if (freq === 'DAILY' || (freq === 'WEEKLY' && !e.rrule.BYDAY)) {
    const period = (freq === 'DAILY' ? 1 : 7) * interval * DAY;
    const n = Math.floor((tLocal - e.startLocal) / period);
    for (let k = n; k >= Math.max(0, n - back); k--)
      if (occurrenceCovers(e, e.startLocal + k * period, k, t)) return toUtc(e.startLocal + k * period, e.tz);
    return null;
  }
  if (freq === 'WEEKLY') {
    const days = e.rrule.BYDAY.split(',')
      .map((d) => WEEKDAYS.indexOf(d.trim().slice(-2).toUpperCase()))
      .filter((d) => d >= 0);
    const startDow = new Date(e.startLocal).getUTCDay();
    const weekStart = e.startLocal - startDow * DAY;
    const w = Math.floor((tLocal - weekStart) / (7 * DAY));
    for (let k = w; k >= Math.max(0, w - back); k--) {
      if (k % interval !== 0) continue;
      for (const [i, d] of days.entries()) {
        const local = weekStart + k * 7 * DAY + d * DAY;
        if (local < e.startLocal) continue;
        if (occurrenceCovers(e, local, (k / interval) * days.length + i, t)) return toUtc(local, e.tz);
      }
    }
    return null;
  }
  if (freq === 'MONTHLY' || freq === 'YEARLY') {
    const s = new Date(e.startLocal);
    const tl = new Date(tLocal);
    const step = freq === 'MONTHLY' ? interval : 12 * interval;
    const months = (tl.getUTCFullYear() - s.getUTCFullYear()) * 12 + tl.getUTCMonth() - s.getUTCMonth();
    const n = Math.floor(months / step);
    for (let k = n; k >= Math.max(0, n - 1); k--) {
      const d = new Date(e.startLocal);
      d.setUTCMonth(d.getUTCMonth() + k * step);
      if (d.getUTCDate() !== s.getUTCDate()) continue; // e.g. the 31st in a short month
      if (occurrenceCovers(e, d.getTime(), k, t)) return toUtc(d.getTime(), e.tz);
    }
    return null;
  }
  return occurrenceCovers(e, e.startLocal, 0, t) ? toUtc(e.startLocal, e.tz) : null;
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
