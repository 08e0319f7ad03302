import { describe, expect, it } from 'vitest';
import {
  buildIcs,
  calendarDataToSchedules,
  decodeCalendarData,
  emptySchedule,
  parseIcs,
  schedulePreview,
  schedulesToCalendarData,
  validateCalendarData,
  validateSchedule,
  zoneOffset,
  type CalendarSchedule,
} from '../src/index.ts';

const base: CalendarSchedule = {
  start: '2026-11-23T08:00',
  end: '2026-11-23T18:00',
  repeat: 'none',
  interval: 1,
  byDay: [],
  expiry: 'never',
  count: 10,
  until: '',
};
const SP = 'America/Sao_Paulo';
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function roundTrip(s: CalendarSchedule, tz = SP) {
  const data = schedulesToCalendarData([s], { tz, name: 'Turno', now: NOW });
  expect(validateCalendarData(data)).toBeNull();
  return { data, text: decodeCalendarData(data), parsed: calendarDataToSchedules(data, tz) };
}

describe('iCalendar build', () => {
  it('writes a weekly VEVENT with TZID wall-clock times and BYDAY', () => {
    const text = buildIcs([{ ...base, repeat: 'weekly', byDay: ['MO', 'WE'] }], { tz: SP, now: NOW });
    expect(text).toContain('BEGIN:VCALENDAR\r\n');
    expect(text).toContain('DTSTART;TZID=America/Sao_Paulo:20261123T080000\r\n');
    expect(text).toContain('DTEND;TZID=America/Sao_Paulo:20261123T180000\r\n');
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n');
    expect(text).toContain('DTSTAMP:20261122T120000Z');
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('writes UTC times when the zone is UTC, and no RRULE for a single period', () => {
    const text = buildIcs([base], { tz: 'UTC', now: NOW });
    expect(text).toContain('DTSTART:20261123T080000Z');
    expect(text).toContain('DTEND:20261123T180000Z');
    expect(text).not.toContain('RRULE');
  });

  it('writes UNTIL as the end of the chosen day in UTC (São Paulo is UTC−3)', () => {
    const text = buildIcs([{ ...base, repeat: 'daily', expiry: 'until', until: '2026-12-31' }], {
      tz: SP,
      now: NOW,
    });
    expect(text).toContain('RRULE:FREQ=DAILY;UNTIL=20270101T025959Z');
  });

  it('skips invalid schedules and keeps several valid ones as separate VEVENTs', () => {
    const text = buildIcs(
      [
        base,
        { ...base, end: '2026-11-23T07:00' },
        { ...base, start: '2026-11-24T09:00', end: '2026-11-24T10:00' },
      ],
      { tz: SP, now: NOW },
    );
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(2);
  });
});

describe('iCalendar round trip', () => {
  it.each([
    ['daily', { repeat: 'daily' as const }],
    ['weekly (weekday of start)', { repeat: 'weekly' as const }],
    ['weekly with days', { repeat: 'weekly' as const, byDay: ['MO' as const, 'FR' as const] }],
    ['monthly', { repeat: 'monthly' as const }],
    ['yearly', { repeat: 'yearly' as const }],
    [
      'daily every 2 days, COUNT=5',
      { repeat: 'daily' as const, interval: 2, expiry: 'count' as const, count: 5 },
    ],
    ['weekly UNTIL', { repeat: 'weekly' as const, expiry: 'until' as const, until: '2027-03-31' }],
    ['monthly COUNT=12', { repeat: 'monthly' as const, expiry: 'count' as const, count: 12 }],
    ['yearly UNTIL', { repeat: 'yearly' as const, expiry: 'until' as const, until: '2030-11-23' }],
    ['single period', {}],
  ])('%s', (_label, patch) => {
    const s = { ...base, ...patch };
    const { parsed } = roundTrip(s);
    expect(parsed.schedules).toEqual([s]);
    expect(parsed.name).toBe('Turno');
    expect(s.repeat === 'none' || parsed.tz === SP).toBe(true);
  });

  it('the RRULE text names FREQ, COUNT and UNTIL', () => {
    expect(roundTrip({ ...base, repeat: 'weekly' }).text).toContain('RRULE:FREQ=WEEKLY\r\n');
    expect(roundTrip({ ...base, repeat: 'monthly', expiry: 'count', count: 3 }).text).toContain(
      'RRULE:FREQ=MONTHLY;COUNT=3',
    );
    expect(roundTrip({ ...base, repeat: 'yearly', expiry: 'until', until: '2030-01-01' }).text).toContain(
      'RRULE:FREQ=YEARLY;UNTIL=20300102T025959Z',
    );
  });

  it('round-trips several schedules and an accented name (UTF-8 in base64)', () => {
    const list = [
      { ...base, repeat: 'weekly' as const, byDay: ['MO' as const] },
      { ...base, start: '2026-11-28T00:00', end: '2026-11-29T00:00', repeat: 'weekly' as const },
    ];
    const data = schedulesToCalendarData(list, { tz: SP, name: 'Expediente São João', now: NOW });
    const parsed = calendarDataToSchedules(data, SP);
    expect(parsed.schedules).toEqual(list);
    expect(parsed.name).toBe('Expediente São João');
  });

  it('converts UTC and other-zone times into the viewer zone; keeps floating times', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'DTSTART:20261123T110000Z',
      'DURATION:PT10H',
      'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270101T025959Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'DTSTART;TZID=Europe/Lisbon:20260701T090000',
      'DTEND;TZID=Europe/Lisbon:20260701T100000',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'DTSTART;VALUE=DATE:20261225',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\n');
    const { schedules } = parseIcs(ics, SP);
    expect(schedules[0]).toMatchObject({
      start: '2026-11-23T08:00',
      end: '2026-11-23T18:00',
      repeat: 'weekly',
      byDay: ['MO'],
      expiry: 'until',
      until: '2026-12-31',
    });
    // Lisbon summer time is UTC+1, São Paulo UTC−3: 4 hours apart
    expect(schedules[1]).toMatchObject({
      start: '2026-07-01T05:00',
      end: '2026-07-01T06:00',
      repeat: 'none',
    });
    // an all-day date lasts one day
    expect(schedules[2]).toMatchObject({ start: '2026-12-25T00:00', end: '2026-12-26T00:00' });
  });
});

describe('schedule validation and preview', () => {
  it('flags end before start, bad count and until before start', () => {
    expect(validateSchedule(base)).toEqual({});
    expect(validateSchedule({ ...base, end: '2026-11-23T08:00' })).toEqual({ end: 'endBeforeStart' });
    expect(validateSchedule({ ...base, start: 'x' })).toMatchObject({ start: 'startInvalid' });
    expect(validateSchedule({ ...base, repeat: 'daily', expiry: 'count', count: 0 })).toEqual({
      count: 'countInvalid',
    });
    expect(validateSchedule({ ...base, repeat: 'daily', expiry: 'until', until: '2026-11-01' })).toEqual({
      until: 'untilBeforeStart',
    });
    expect(validateSchedule({ ...base, repeat: 'daily', expiry: 'until', until: '2026-02-30' })).toEqual({
      until: 'untilInvalid',
    });
    // a single period ignores the repeat fields
    expect(validateSchedule({ ...base, expiry: 'count', count: 0 })).toEqual({});
  });

  it('describes a weekly schedule by its weekdays and hours (2026-11-23 is a Monday)', () => {
    expect(schedulePreview({ ...base, repeat: 'weekly' })).toMatchObject({
      repeat: 'weekly',
      weekdays: [1],
      startTime: '08:00',
      endTime: '18:00',
      spanDays: 0,
    });
    expect(schedulePreview({ ...base, repeat: 'weekly', byDay: ['FR', 'MO'] })?.weekdays).toEqual([1, 5]);
    expect(schedulePreview({ ...base, repeat: 'monthly' })).toMatchObject({ monthDay: 23, month: 10 });
  });

  it('a new schedule is today 08:00–18:00, weekly, never expiring', () => {
    const s = emptySchedule(new Date(2026, 0, 5, 15, 0));
    expect(s).toMatchObject({ start: '2026-01-05T08:00', end: '2026-01-05T18:00', repeat: 'weekly' });
    expect(validateSchedule(s)).toEqual({});
  });
});

describe('zoneOffset (one home: calendars and the server reports)', () => {
  it('is the zone offset in whole minutes at any instant, milliseconds included', () => {
    const noon = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(zoneOffset('America/Sao_Paulo', noon)).toBe(-3 * 3_600_000);
    expect(zoneOffset('America/Sao_Paulo', noon + 500)).toBe(-3 * 3_600_000);
    expect(zoneOffset('Asia/Kolkata', noon + 999)).toBe(5.5 * 3_600_000);
    expect(zoneOffset('UTC', noon + 1)).toBe(0);
    expect(zoneOffset('Not/AZone', noon)).toBe(0);
  });
});
