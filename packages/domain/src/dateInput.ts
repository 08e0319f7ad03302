// Typed dates of the app's date fields (issue #29): the pattern a person reads and types in each language
// (pt-BR and es day first, en-US month first, 24-hour clock) and the strict reading of what was typed into the
// value the forms keep (the native inputs' shapes: YYYY-MM-DD, or YYYY-MM-DDTHH:mm in the browser's time).
import type { AppLocale } from './format.ts';

/** The dayjs pattern of a date field in a language ("DD/MM/YYYY HH:mm" in pt-BR). */
export function dateInputPattern(locale: string, withTime: boolean): string {
  const date = locale === 'en-US' ? 'MM/DD/YYYY' : 'DD/MM/YYYY';
  return withTime ? `${date} HH:mm` : date;
}

/** The placeholder of a date field, in the words of its language ("dd/mm/aaaa hh:mm" in pt-BR). */
export function dateInputPlaceholder(locale: string, withTime: boolean): string {
  const words: Record<AppLocale, [string, string]> = {
    'pt-BR': ['dd/mm/aaaa', 'hh:mm'],
    es: ['dd/mm/aaaa', 'hh:mm'],
    'en-US': ['mm/dd/yyyy', 'hh:mm'],
  };
  const [date, time] = words[locale as AppLocale] ?? words['en-US'];
  return withTime ? `${date} ${time}` : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * What a person typed in a date field as the form's value (YYYY-MM-DD, or YYYY-MM-DDTHH:mm with `withTime`), or
 * null when it is not a whole, real date in the language's pattern (31/02, 24:00 and partial typing are null).
 * Separators may be "/", "-" or "."; a time may be left out (midnight).
 */
export function parseDateInput(text: string, locale: string, withTime: boolean): string | null {
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[\sT]+(\d{1,2}):(\d{2}))?\s*$/.exec(text);
  if (!m) return null;
  const [first, second] = [Number(m[1]), Number(m[2])];
  const [day, month] = locale === 'en-US' ? [second, first] : [first, second];
  const year = Number(m[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day)
    return null;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  if (!withTime) return m[4] === undefined ? date : null;
  const [hour, minute] = [Number(m[4] ?? 0), Number(m[5] ?? 0)];
  if (hour > 23 || minute > 59) return null;
  return `${date}T${pad(hour)}:${pad(minute)}`;
}
