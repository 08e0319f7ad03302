// Words for a schedule ("toda segunda e quarta das 08:00 às 18:00, até 31/12/2026") in the page's language, from
// the structured preview of @rastro/domain. Weekday and month names come from Intl; the phrases from the
// `calendars` namespace (preview.*).
import { schedulePreview, type CalendarSchedule } from '@rastro/domain';
import type { TFunction } from 'i18next';

/** The name of weekday `day` (0 = Sunday), long as in the sentence or short as on the form's chips. */
export function weekdayName(locale: string, day: number, weekday: 'long' | 'short' = 'long'): string {
  // 2026-11-22 is a Sunday
  return new Intl.DateTimeFormat(locale, { weekday, timeZone: 'UTC' })
    .format(new Date(Date.UTC(2026, 10, 22 + day)))
    .replace(/-feira$/, '');
}

function formatDay(locale: string, ymd: string, withYear = true): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, {
    day: '2-digit',
    month: withYear ? '2-digit' : 'long',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

export function scheduleText(s: CalendarSchedule, t: TFunction, locale: string): string {
  const p = schedulePreview(s);
  if (!p) return '';
  const hours = t('preview.hours', { start: p.startTime, end: p.endTime });
  const span = p.spanDays > 0 ? ` ${t('preview.span', { count: p.spanDays })}` : '';
  let when: string;
  if (p.repeat === 'none') when = t('preview.once', { date: formatDay(locale, p.startDate) });
  else if (p.repeat === 'daily')
    when = p.interval > 1 ? t('preview.everyNDays', { count: p.interval }) : t('preview.daily');
  else if (p.repeat === 'weekly') {
    const [first, ...rest] = p.weekdays;
    const names = [t(`preview.every.${first}`, { day: weekdayName(locale, first) })];
    for (const d of rest) names.push(weekdayName(locale, d));
    when = new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(names);
    if (p.interval > 1) when += ` ${t('preview.everyNWeeks', { count: p.interval })}`;
  } else if (p.repeat === 'monthly')
    when =
      p.interval > 1
        ? t('preview.monthlyN', { day: p.monthDay, count: p.interval })
        : t('preview.monthly', { day: p.monthDay });
  else when = t('preview.yearly', { date: formatDay(locale, p.startDate, false) });
  let expiry = '';
  if (p.repeat !== 'none') {
    if (p.expiry === 'count') expiry = `, ${t('preview.count', { count: p.count })}`;
    else if (p.expiry === 'until' && p.until)
      expiry = `, ${t('preview.until', { date: formatDay(locale, p.until) })}`;
    if (p.startDate) expiry = `${expiry} ${t('preview.from', { date: formatDay(locale, p.startDate) })}`;
  }
  return `${when} ${hours}${span}${expiry}`.replace(/\s+/g, ' ').trim();
}
