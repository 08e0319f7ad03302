// Calendars written by the web form (@rastro/domain buildIcs: DTSTART;TZID=… and UNTIL in UTC, RFC 5545) are
// active exactly as the form says: the UNTIL day is the last one in the user's zone, COUNT limits occurrences.
import { describe, expect, it } from 'vitest';
import { schedulesToCalendarData, type CalendarSchedule } from '@rastro/domain';
import { calendarActive } from '../../src/live/calendar.ts';

const SP = 'America/Sao_Paulo'; // UTC−3, no daylight saving time since 2019
const schedule = (patch: Partial<CalendarSchedule>): CalendarSchedule => ({
  start: '2026-11-23T01:00',
  end: '2026-11-23T02:00',
  repeat: 'daily',
  interval: 1,
  byDay: [],
  expiry: 'never',
  count: 10,
  until: '',
  ...patch,
});
// local São Paulo wall-clock time → UTC instant
const at = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m - 1, d, h + 3, min);

describe('calendars built by the web form', () => {
  it('UNTIL: the last day is the chosen day in the user zone (01:00–02:00 daily until 25 Dec)', () => {
    const data = schedulesToCalendarData([schedule({ expiry: 'until', until: '2026-12-25' })], { tz: SP });
    expect(calendarActive(data, at(2026, 11, 23, 1, 30))).toBe(true);
    expect(calendarActive(data, at(2026, 12, 25, 1, 30))).toBe(true);
    // 26 Dec 01:30 local is 04:30 UTC: after UNTIL (25 Dec 23:59:59 local = 26 Dec 02:59:59 UTC)
    expect(calendarActive(data, at(2026, 12, 26, 1, 30))).toBe(false);
    expect(calendarActive(data, at(2026, 12, 25, 3, 0))).toBe(false);
  });

  it('weekly with BYDAY and COUNT', () => {
    const data = schedulesToCalendarData(
      [
        schedule({
          start: '2026-11-23T08:00',
          end: '2026-11-23T18:00',
          repeat: 'weekly',
          byDay: ['MO', 'WE'],
          expiry: 'count',
          count: 3,
        }),
      ],
      { tz: SP },
    );
    expect(calendarActive(data, at(2026, 11, 23, 9))).toBe(true); // Monday, 1st
    expect(calendarActive(data, at(2026, 11, 24, 9))).toBe(false); // Tuesday
    expect(calendarActive(data, at(2026, 11, 25, 17, 59))).toBe(true); // Wednesday, 2nd
    expect(calendarActive(data, at(2026, 11, 30, 9))).toBe(true); // Monday, 3rd
    expect(calendarActive(data, at(2026, 12, 2, 9))).toBe(false); // 4th: past COUNT
  });
});
