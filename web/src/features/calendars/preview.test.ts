// Preview sentences of calendar schedules in the three languages (SPEC §3 Calendar; "toda segunda das 08:00 às
// 18:00" style). 2026-11-23 is a Monday.
import { describe, expect, it } from 'vitest';
import type { CalendarSchedule } from '@rastro/domain';
import { createI18n } from '../../i18n/index.ts';
import { scheduleText } from './preview.ts';

const base: CalendarSchedule = {
  start: '2026-11-23T08:00',
  end: '2026-11-23T18:00',
  repeat: 'weekly',
  interval: 1,
  byDay: [],
  expiry: 'never',
  count: 10,
  until: '',
};
const text = (lang: 'pt-BR' | 'es' | 'en-US', s: Partial<CalendarSchedule>) => {
  const i18n = createI18n(lang);
  return scheduleText({ ...base, ...s }, i18n.getFixedT(lang, 'calendars'), lang);
};

describe('schedule preview', () => {
  it('weekly on the weekday of the start', () => {
    expect(text('pt-BR', {})).toBe('toda segunda das 08:00 às 18:00 a partir de 23/11/2026');
    expect(text('en-US', {})).toBe('every Monday from 08:00 to 18:00 starting 11/23/2026');
  });

  it('weekly on several days, with a count or an end date', () => {
    expect(text('pt-BR', { byDay: ['SA', 'MO', 'WE'], expiry: 'count', count: 5 })).toBe(
      'toda segunda, quarta e sábado das 08:00 às 18:00, 5 vezes a partir de 23/11/2026',
    );
    expect(text('es', { byDay: ['SU'], expiry: 'until', until: '2026-12-31' })).toBe(
      'cada domingo de 08:00 a 18:00, hasta el 31/12/2026 desde el 23/11/2026',
    );
  });

  it('daily, monthly, yearly, a single period and one spanning midnight', () => {
    expect(text('pt-BR', { repeat: 'daily', end: '2026-11-24T06:00', start: '2026-11-23T22:00' })).toBe(
      'todo dia das 22:00 às 06:00 (+1 dia) a partir de 23/11/2026',
    );
    expect(text('pt-BR', { repeat: 'monthly' })).toMatch(/^todo dia 23 do mês das 08:00 às 18:00/);
    expect(text('en-US', { repeat: 'yearly' })).toMatch(/^every year on November 23 from 08:00 to 18:00/);
    expect(text('pt-BR', { repeat: 'none' })).toBe('em 23/11/2026 das 08:00 às 18:00');
    expect(text('en-US', { repeat: 'daily', interval: 3 })).toMatch(/^every 3 days from 08:00/);
  });
});
