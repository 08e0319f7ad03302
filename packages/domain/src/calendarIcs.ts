// Calendar schedules (SPEC §3 Calendar) ⇄ iCalendar text (CONTRACT §3: Calendar.data is the .ics file as base64).
// One schedule = one VEVENT: start and end as wall-clock times in the user's time zone (DTSTART/DTEND with TZID),
// a repeat frequency (RRULE FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, weekly with BYDAY) and an expiry (never, COUNT=n or
// UNTIL = the end of a date in that zone, written in UTC as RFC 5545 asks when DTSTART has a TZID).
// `parseIcs` reads back what `buildIcs` writes, plus UTC (Z) and floating times from other tools.

export const REPEAT_FREQUENCIES = ['none', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export type RepeatFrequency = (typeof REPEAT_FREQUENCIES)[number];
export const EXPIRY_KINDS = ['never', 'count', 'until'] as const;
export type ExpiryKind = (typeof EXPIRY_KINDS)[number];
/** RFC 5545 weekday codes, Sunday first (index = JS getUTCDay()). */
export const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
export type WeekdayCode = (typeof WEEKDAY_CODES)[number];

export interface CalendarSchedule {
  /** Wall-clock start, 'YYYY-MM-DDTHH:mm'. */
  start: string;
  /** Wall-clock end, 'YYYY-MM-DDTHH:mm' (after start). */
  end: string;
  repeat: RepeatFrequency;
  /** Every n days/weeks/months/years (1 = every). */
  interval: number;
  /** Weekly only: the days; empty = the weekday of `start`. */
  byDay: WeekdayCode[];
  expiry: ExpiryKind;
  /** Occurrences when expiry = 'count'. */
  count: number;
  /** Last day 'YYYY-MM-DD' when expiry = 'until'. */
  until: string;
}

export function emptySchedule(now: Date = new Date()): CalendarSchedule {
  const d = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return {
    start: `${d}T08:00`,
    end: `${d}T18:00`,
    repeat: 'weekly',
    interval: 1,
    byDay: [],
    expiry: 'never',
    count: 10,
    until: '',
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

// ---------------------------------------------------------------------------------------------------------------
// Time helpers (wall-clock values are kept as UTC-based numbers of their fields)

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DDTHH:mm' → wall-clock number, or null. */
export function localToNumber(value: string): number | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const n = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  const d = new Date(n);
  return d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] ? n : null;
}

function numberToLocal(n: number): string {
  const d = new Date(n);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}`;
}

function numberToIcs(n: number, utc = false): string {
  const d = new Date(n);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${utc ? 'Z' : ''}`
  );
}

function icsToNumber(value: string): { n: number; utc: boolean; date: boolean } | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) return null;
  return {
    n: Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)),
    utc: !!m[7],
    date: m[4] === undefined,
  };
}

/** Offset (ms) of time zone `tz` at the UTC instant `utc` (0 for an unknown zone). */
export function zoneOffset(tz: string, utc: number): number {
  if (!tz || tz === 'UTC') return 0;
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
    // the wall clock has whole seconds: compare with the instant's whole second (milliseconds are not offset)
    const wall = Date.UTC(
      get('year'),
      get('month') - 1,
      get('day'),
      get('hour'),
      get('minute'),
      get('second'),
    );
    return wall - Math.floor(utc / 1000) * 1000;
  } catch {
    return 0;
  }
}

const wallToUtc = (wall: number, tz: string) => {
  const guess = wall - zoneOffset(tz, wall);
  return wall - zoneOffset(tz, guess);
};
const utcToWall = (utc: number, tz: string) => utc + zoneOffset(tz, utc);

// ---------------------------------------------------------------------------------------------------------------
// Validation

export type ScheduleError =
  | 'startInvalid'
  | 'endInvalid'
  | 'endBeforeStart'
  | 'countInvalid'
  | 'untilInvalid'
  | 'untilBeforeStart'
  | 'intervalInvalid';

/** Field → error key for one schedule; empty when valid. */
export function validateSchedule(
  s: CalendarSchedule,
): Partial<Record<keyof CalendarSchedule, ScheduleError>> {
  const out: Partial<Record<keyof CalendarSchedule, ScheduleError>> = {};
  const start = localToNumber(s.start);
  const end = localToNumber(s.end);
  if (start === null) out.start = 'startInvalid';
  if (end === null) out.end = 'endInvalid';
  else if (start !== null && end <= start) out.end = 'endBeforeStart';
  if (s.repeat !== 'none') {
    if (!Number.isInteger(s.interval) || s.interval < 1 || s.interval > 999) out.interval = 'intervalInvalid';
    if (s.expiry === 'count' && (!Number.isInteger(s.count) || s.count < 1 || s.count > 100_000))
      out.count = 'countInvalid';
    if (s.expiry === 'until') {
      if (!DAY_ONLY.test(s.until) || localToNumber(`${s.until}T00:00`) === null) out.until = 'untilInvalid';
      else if (start !== null && localToNumber(`${s.until}T23:59`)! < start) out.until = 'untilBeforeStart';
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Build

export interface BuildOptions {
  /** IANA zone of the wall-clock times (the browser's); 'UTC' writes UTC times. */
  tz: string;
  /** Calendar name (X-WR-CALNAME). */
  name?: string;
  /** UID prefix; defaults to 'rastro'. */
  uidPrefix?: string;
  /** DTSTAMP instant; defaults to now. */
  now?: number;
}

/** RFC 5545 text escaping of a TEXT value. */
const escapeText = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');

/** The RRULE value of a schedule, or null when it does not repeat. */
export function scheduleRrule(s: CalendarSchedule, tz: string): string | null {
  if (s.repeat === 'none') return null;
  const parts = [`FREQ=${s.repeat.toUpperCase()}`];
  if (s.interval > 1) parts.push(`INTERVAL=${s.interval}`);
  if (s.repeat === 'weekly' && s.byDay.length) {
    const days = WEEKDAY_CODES.filter((d) => s.byDay.includes(d));
    parts.push(`BYDAY=${days.join(',')}`);
  }
  if (s.expiry === 'count') parts.push(`COUNT=${s.count}`);
  if (s.expiry === 'until') {
    const wall = localToNumber(`${s.until}T00:00`);
    if (wall !== null) {
      const endOfDay = wall + 86_400_000 - 1000;
      parts.push(`UNTIL=${numberToIcs(tz === 'UTC' ? endOfDay : wallToUtc(endOfDay, tz), true)}`);
    }
  }
  return parts.join(';');
}

function timeProp(name: string, wall: number, tz: string): string {
  return tz === 'UTC' ? `${name}:${numberToIcs(wall, true)}` : `${name};TZID=${tz}:${numberToIcs(wall)}`;
}

/** Folds a content line at 75 octets (approximated by characters) as RFC 5545 §3.1 asks. */
function fold(line: string): string {
  if (line.length <= 75) return line;
  const out = [line.slice(0, 75)];
  for (let i = 75; i < line.length; i += 74) out.push(' ' + line.slice(i, i + 74));
  return out.join('\r\n');
}

/** iCalendar text (CRLF lines) of the schedules. Invalid schedules are skipped. */
export function buildIcs(schedules: readonly CalendarSchedule[], opts: BuildOptions): string {
  const now = numberToIcs(opts.now ?? Date.now(), true);
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Rastro//Calendar//PT', 'CALSCALE:GREGORIAN'];
  if (opts.name) lines.push(`X-WR-CALNAME:${escapeText(opts.name)}`);
  if (opts.tz !== 'UTC') lines.push(`X-WR-TIMEZONE:${opts.tz}`);
  schedules.forEach((s, i) => {
    const start = localToNumber(s.start);
    const end = localToNumber(s.end);
    if (start === null || end === null || end <= start) return;
    lines.push('BEGIN:VEVENT');
    lines.push(`UID:${opts.uidPrefix ?? 'rastro'}-${i + 1}-${numberToIcs(start)}`);
    lines.push(`DTSTAMP:${now}`);
    lines.push(timeProp('DTSTART', start, opts.tz));
    lines.push(timeProp('DTEND', end, opts.tz));
    const rrule = scheduleRrule(s, opts.tz);
    if (rrule) lines.push(`RRULE:${rrule}`);
    lines.push('END:VEVENT');
  });
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

// ---------------------------------------------------------------------------------------------------------------
// Parse

export interface ParsedIcs {
  /** Calendar name (X-WR-CALNAME), if any. */
  name: string | null;
  /** Zone of the first TZID seen, if any. */
  tz: string | null;
  schedules: CalendarSchedule[];
}

function parseDuration(v: string): number | null {
  const m = /^\+?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(v.trim());
  if (!m) return null;
  return (
    ((+(m[1] ?? 0) * 7 + +(m[2] ?? 0)) * 86400 + +(m[3] ?? 0) * 3600 + +(m[4] ?? 0) * 60 + +(m[5] ?? 0)) *
    1000
  );
}

const unescapeText = (v: string) => v.replace(/\\n/gi, '\n').replace(/\\([\\;,])/g, '$1');

/**
 * Reads the VEVENTs of an iCalendar text into schedules, with times in `tz` (the viewer's zone): TZID times
 * are converted from their zone, UTC times to `tz`, floating times are taken as they are.
 */
export function parseIcs(text: string, tz: string): ParsedIcs {
  const lines = text
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const out: ParsedIcs = { name: null, tz: null, schedules: [] };
  type Cur = { start?: number; end?: number; dur?: number; rrule?: Record<string, string>; date?: boolean };
  let cur: Cur | null = null;
  const toViewer = (value: string, params: Record<string, string>): { n: number; date: boolean } | null => {
    const t = icsToNumber(value);
    if (!t) return null;
    if (t.utc) return { n: tz === 'UTC' ? t.n : utcToWall(t.n, tz), date: false };
    if (params.TZID && params.TZID !== tz) {
      out.tz ??= params.TZID;
      const utc = wallToUtc(t.n, params.TZID);
      return { n: tz === 'UTC' ? utc : utcToWall(utc, tz), date: t.date };
    }
    if (params.TZID) out.tz ??= params.TZID;
    return { n: t.n, date: t.date };
  };
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const head = line.slice(0, colon).split(';');
    const name = head[0].toUpperCase();
    const value = line.slice(colon + 1).trim();
    const params: Record<string, string> = {};
    for (const p of head.slice(1)) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).toUpperCase()] = p.slice(eq + 1).replace(/^"|"$/g, '');
    }
    if (name === 'X-WR-CALNAME' && !cur) out.name = unescapeText(value);
    else if (name === 'BEGIN' && value.toUpperCase() === 'VEVENT') cur = {};
    else if (name === 'END' && value.toUpperCase() === 'VEVENT' && cur) {
      if (cur.start !== undefined) out.schedules.push(toSchedule(cur, tz));
      cur = null;
    } else if (cur && name === 'DTSTART') {
      const t = toViewer(value, params);
      if (t) {
        cur.start = t.n;
        cur.date = t.date;
      }
    } else if (cur && name === 'DTEND') {
      const t = toViewer(value, params);
      if (t) cur.end = t.n;
    } else if (cur && name === 'DURATION') {
      const d = parseDuration(value);
      if (d !== null) cur.dur = d;
    } else if (cur && name === 'RRULE') {
      cur.rrule = {};
      for (const kv of value.split(';')) {
        const eq = kv.indexOf('=');
        if (eq > 0) cur.rrule[kv.slice(0, eq).toUpperCase()] = kv.slice(eq + 1);
      }
    }
  }
  return out;

  function toSchedule(c: Cur, viewerTz: string): CalendarSchedule {
    const start = c.start!;
    const end = c.end ?? start + (c.dur ?? (c.date ? 86_400_000 : 3_600_000));
    const s: CalendarSchedule = {
      start: numberToLocal(start),
      end: numberToLocal(end > start ? end : start + 3_600_000),
      repeat: 'none',
      interval: 1,
      byDay: [],
      expiry: 'never',
      count: 10,
      until: '',
    };
    const r = c.rrule;
    if (!r) return s;
    const freq = (r.FREQ ?? '').toLowerCase();
    if ((REPEAT_FREQUENCIES as readonly string[]).includes(freq) && freq !== 'none')
      s.repeat = freq as RepeatFrequency;
    const interval = Number(r.INTERVAL ?? 1);
    if (Number.isInteger(interval) && interval > 0) s.interval = interval;
    if (s.repeat === 'weekly' && r.BYDAY) {
      const days = r.BYDAY.split(',').map((d) => d.trim().slice(-2).toUpperCase());
      s.byDay = WEEKDAY_CODES.filter((d) => days.includes(d));
    }
    if (r.COUNT && Number(r.COUNT) > 0) {
      s.expiry = 'count';
      s.count = Number(r.COUNT);
    } else if (r.UNTIL) {
      const u = icsToNumber(r.UNTIL);
      if (u) {
        const wall = u.utc && viewerTz !== 'UTC' ? utcToWall(u.n, viewerTz) : u.n;
        s.expiry = 'until';
        s.until = numberToLocal(wall).slice(0, 10);
      }
    }
    return s;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// base64 (UTF-8 safe) for Calendar.data

export function encodeCalendarData(ics: string): string {
  const bytes = new TextEncoder().encode(ics);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

export function decodeCalendarData(data: string): string {
  try {
    const bin = atob(data.replace(/\s+/g, ''));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return '';
  }
}

/** Calendar.data of the schedules. */
export function schedulesToCalendarData(schedules: readonly CalendarSchedule[], opts: BuildOptions): string {
  return encodeCalendarData(buildIcs(schedules, opts));
}

/** Schedules of a Calendar.data value, in the viewer's zone. */
export function calendarDataToSchedules(data: string, tz: string): ParsedIcs {
  return parseIcs(decodeCalendarData(data), tz);
}

// ---------------------------------------------------------------------------------------------------------------
// Preview ("toda segunda das 08:00 às 18:00"): structured, the web turns it into words

export interface SchedulePreview {
  repeat: RepeatFrequency;
  interval: number;
  /** Weekday indexes (0 = Sunday) for weekly schedules. */
  weekdays: number[];
  /** Day of month (monthly) and month index 0–11 (yearly) of the start. */
  monthDay: number;
  month: number;
  startDate: string;
  startTime: string;
  endTime: string;
  /** Days between start and end (0 = same day). */
  spanDays: number;
  expiry: ExpiryKind;
  count: number;
  until: string;
}

export function schedulePreview(s: CalendarSchedule): SchedulePreview | null {
  const start = localToNumber(s.start);
  const end = localToNumber(s.end);
  if (start === null || end === null) return null;
  const sd = new Date(start);
  const weekdays =
    s.repeat === 'weekly'
      ? s.byDay.length
        ? WEEKDAY_CODES.map((c, i) => (s.byDay.includes(c) ? i : -1)).filter((i) => i >= 0)
        : [sd.getUTCDay()]
      : [];
  return {
    repeat: s.repeat,
    interval: s.interval,
    weekdays,
    monthDay: sd.getUTCDate(),
    month: sd.getUTCMonth(),
    startDate: s.start.slice(0, 10),
    startTime: s.start.slice(11, 16),
    endTime: s.end.slice(11, 16),
    spanDays: Math.floor(end / 86_400_000) - Math.floor(start / 86_400_000),
    expiry: s.repeat === 'none' ? 'never' : s.expiry,
    count: s.count,
    until: s.until,
  };
}
