// Display formatting of speeds, distances, volumes, durations, currency and coordinates (SPEC §9).
import {
  UNIT_LABELS,
  convertAltitude,
  convertDistance,
  convertSpeed,
  convertVolume,
  msToHours,
  type AltitudeUnit,
  type DistanceUnit,
  type SpeedUnit,
  type VolumeUnit,
} from './units.ts';

export type AppLocale = 'pt-BR' | 'es' | 'en-US';

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number with a fixed count of decimals in the locale (formatters are built once per locale and count). */
export function formatNumber(value: number, locale: string = 'pt-BR', fractionDigits = 1): string {
  const key = `${locale}|${fractionDigits}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    numberFormats.set(key, f);
  }
  return f.format(value);
}

/** A number with at most `maxDigits` decimals in the locale ("50,87" in pt-BR, "50.87" in en-US, "51" for 51.0). */
export function formatDecimal(value: number, locale: string = 'pt-BR', maxDigits = 2): string {
  const key = `${locale}|max${maxDigits}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: maxDigits });
    numberFormats.set(key, f);
  }
  return f.format(value);
}

/** A time as Date, ms since the epoch or an ISO text. */
export type TimeInput = Date | number | string;

const toMs = (v: TimeInput): number =>
  v instanceof Date ? v.getTime() : typeof v === 'number' ? v : Date.parse(v);

const dateFormats = new Map<string, Intl.DateTimeFormat>();

const twentyFourHours = (locale: string): boolean => {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h23' || cycle === 'h24';
};

function dateFormat(
  kind: string,
  locale: string,
  timeZone: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${kind}|${locale}|${timeZone ?? ''}`;
  let f = dateFormats.get(key);
  if (!f) {
    // 24-hour clocks read "06:05", 12-hour ones "6:05 AM"
    const hour = options.hour && twentyFourHours(locale) ? '2-digit' : options.hour;
    f = new Intl.DateTimeFormat(locale, { ...options, hour, timeZone });
    dateFormats.set(key, f);
  }
  return f;
}

const DATE: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const TIME_SECONDS: Intl.DateTimeFormatOptions = { ...TIME, second: '2-digit' };

function formatWith(
  kind: string,
  options: Intl.DateTimeFormatOptions,
  value: TimeInput,
  locale: string,
  timeZone?: string,
): string {
  const ms = toMs(value);
  return Number.isFinite(ms) ? dateFormat(kind, locale, timeZone, options).format(ms) : '';
}

/** The date in the locale: "27/11/2026" (pt-BR, es), "11/27/2026" (en-US). Invalid times give "". */
export function formatDate(value: TimeInput, locale: string = 'pt-BR', timeZone?: string): string {
  return formatWith('date', DATE, value, locale, timeZone);
}

/** The time of day in the locale's clock: "15:51" (pt-BR, es), "3:51 PM" (en-US); `seconds` adds them. */
export function formatTime(
  value: TimeInput,
  locale: string = 'pt-BR',
  timeZone?: string,
  seconds = false,
): string {
  return seconds
    ? formatWith('timeS', TIME_SECONDS, value, locale, timeZone)
    : formatWith('time', TIME, value, locale, timeZone);
}

/** Date and time: "27/11/2026, 15:51" (pt-BR), "11/27/2026, 3:51 PM" (en-US). */
export function formatDateTime(
  value: TimeInput,
  locale: string = 'pt-BR',
  timeZone?: string,
  seconds = false,
): string {
  return formatWith(
    seconds ? 'dateTimeS' : 'dateTime',
    { ...DATE, ...(seconds ? TIME_SECONDS : TIME) },
    value,
    locale,
    timeZone,
  );
}

const DAY_MS = 86_400_000;

/**
 * A tick of a time axis whose ticks are `stepMs` apart: the time of day ("06:00" in pt-BR, "6:00 AM" in en-US)
 * under a day, the day and month ("27/11", "11/27") from a day up.
 */
export function formatAxisTime(
  value: TimeInput,
  stepMs: number,
  locale: string = 'pt-BR',
  timeZone?: string,
): string {
  return stepMs >= DAY_MS
    ? formatWith('dayMonth', { day: '2-digit', month: '2-digit' }, value, locale, timeZone)
    : formatTime(value, locale, timeZone);
}

export function formatSpeed(knots: number, unit: SpeedUnit, locale?: string, digits = 0): string {
  return `${formatNumber(convertSpeed(knots, unit), locale, digits)} ${UNIT_LABELS[unit]}`;
}

export function formatDistance(meters: number, unit: DistanceUnit, locale?: string, digits = 2): string {
  return `${formatNumber(convertDistance(meters, unit), locale, digits)} ${UNIT_LABELS[unit]}`;
}

export function formatAltitude(meters: number, unit: AltitudeUnit, locale?: string, digits = 0): string {
  return `${formatNumber(convertAltitude(meters, unit), locale, digits)} ${UNIT_LABELS[unit]}`;
}

export function formatVolume(liters: number, unit: VolumeUnit, locale?: string, digits = 1): string {
  return `${formatNumber(convertVolume(liters, unit), locale, digits)} ${UNIT_LABELS[unit]}`;
}

/** Engine hours (Traccar ms) as decimal hours, e.g. 5400000 ⇒ "1.5 h". */
export function formatEngineHours(ms: number, locale?: string, digits = 1): string {
  return `${formatNumber(msToHours(ms), locale, digits)} h`;
}

/**
 * Durations in ms: under a minute "45 s", under an hour "5 min", else "1 h 05 min" (minutes two digits,
 * hours unbounded). Negative or non-finite values give "0 s".
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0 s';
  const totalSeconds = Math.floor(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) return `${totalMinutes} min`;
  const h = Math.floor(totalMinutes / 60);
  const m = totalMinutes % 60;
  return `${h} h ${String(m).padStart(2, '0')} min`;
}

/** Currency by locale: R$ (BRL) for pt-BR and es/es-ES, $ (USD) for en-US; always 2 decimals. */
export function currencyForLocale(locale: string): 'BRL' | 'USD' {
  return locale.toLowerCase().startsWith('en') ? 'USD' : 'BRL';
}

export function formatCurrency(value: number, locale: string = 'pt-BR', currency?: string): string {
  const code = currency ?? currencyForLocale(locale);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
    .format(value)
    .replace(/\u00a0/g, ' ');
}

export const COORDINATE_FORMATS = ['dd', 'ddm', 'dms'] as const;
export type CoordinateFormat = (typeof COORDINATE_FORMATS)[number];

/**
 * dd: "-23.550520°"; ddm: "23° 33.0312' S"; dms: "23° 33' 1.87\" S". Unknown formats fall back to dd.
 */
export function formatCoordinate(
  value: number,
  axis: 'latitude' | 'longitude',
  format: string | null | undefined = 'dd',
): string {
  if (format !== 'ddm' && format !== 'dms') return `${value.toFixed(6)}°`;
  const hemi = axis === 'latitude' ? (value < 0 ? 'S' : 'N') : value < 0 ? 'W' : 'E';
  const abs = Math.abs(value);
  let deg = Math.floor(abs);
  const minutesFull = (abs - deg) * 60;
  if (format === 'ddm') {
    let min = Number(minutesFull.toFixed(4));
    if (min >= 60) {
      min = 0;
      deg += 1;
    }
    return `${deg}° ${min.toFixed(4)}' ${hemi}`;
  }
  let min = Math.floor(minutesFull);
  let sec = Number(((minutesFull - min) * 60).toFixed(2));
  if (sec >= 60) {
    sec = 0;
    min += 1;
  }
  if (min >= 60) {
    min = 0;
    deg += 1;
  }
  return `${deg}° ${min}' ${sec.toFixed(2)}" ${hemi}`;
}

/** Cut long values for display ("channel value" 20/30, result body 100) with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Circle area in km², 2 decimals (SPEC §9). */
export function circleAreaKm2(radiusMeters: number): number {
  return Number(((Math.PI * radiusMeters * radiusMeters) / 1_000_000).toFixed(2));
}
