// Recurrence rules beyond what the web form writes, expanded by the rrule library (server/src/live/calendar.ts):
// "the second Monday of each month", every other week, the last day of the month, and a floating (zone-less) rule.
import { describe, expect, it } from 'vitest';
import { calendarActive } from '../../src/live/calendar.ts';

const ics = (lines: string[]) =>
  Buffer.from(
    ['BEGIN:VCALENDAR', 'BEGIN:VEVENT', ...lines, 'END:VEVENT', 'END:VCALENDAR'].join('\r\n'),
  ).toString('base64');
// São Paulo (UTC−3) wall clock → UTC instant
const sp = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m - 1, d, h + 3, min);

describe('calendar rules', () => {
  it('the second Monday of each month, 08:00–12:00 São Paulo', () => {
    const cal = ics([
      'DTSTART;TZID=America/Sao_Paulo:20260112T080000',
      'DTEND;TZID=America/Sao_Paulo:20260112T120000',
      'RRULE:FREQ=MONTHLY;BYDAY=2MO',
    ]);
    expect(calendarActive(cal, sp(2026, 11, 9, 9))).toBe(true); // 9 Nov 2026 is the 2nd Monday
    expect(calendarActive(cal, sp(2026, 11, 2, 9))).toBe(false); // the 1st Monday
    expect(calendarActive(cal, sp(2026, 11, 9, 12, 30))).toBe(false);
    expect(calendarActive(cal, sp(2026, 12, 14, 11, 59))).toBe(true);
  });

  it('every other week on Fridays', () => {
    const cal = ics([
      'DTSTART;TZID=America/Sao_Paulo:20261106T140000',
      'DURATION:PT2H',
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR',
    ]);
    expect(calendarActive(cal, sp(2026, 11, 6, 15))).toBe(true);
    expect(calendarActive(cal, sp(2026, 11, 13, 15))).toBe(false);
    expect(calendarActive(cal, sp(2026, 11, 20, 15))).toBe(true);
  });

  it('the last day of each month, all day, floating (the reader’s clock is UTC here)', () => {
    const cal = ics(['DTSTART;VALUE=DATE:20260131', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1']);
    expect(calendarActive(cal, Date.UTC(2026, 1, 28, 10))).toBe(true); // 28 Feb 2026
    expect(calendarActive(cal, Date.UTC(2026, 1, 27, 10))).toBe(false);
    expect(calendarActive(cal, Date.UTC(2026, 3, 30, 23))).toBe(true); // 30 Apr
  });

  it('a rule it cannot read keeps the first occurrence only, and never throws', () => {
    const cal = ics(['DTSTART:20261101T100000Z', 'DTEND:20261101T110000Z', 'RRULE:FREQ=SOMETIMES']);
    expect(calendarActive(cal, Date.UTC(2026, 10, 1, 10, 30))).toBe(true);
    expect(calendarActive(cal, Date.UTC(2026, 10, 2, 10, 30))).toBe(false);
  });
});
