import { describe, expect, it } from 'vitest';
import {
  finishedDays,
  localDayStart,
  offsetPeriods,
  statisticsDays,
  statisticsZone,
} from '../src/statistics.ts';

const at = (iso: string) => Date.parse(iso);

describe('statistics days in the server time zone', () => {
  it('lists finished local days whose start lies in [from, to], never today or future days', () => {
    const days = finishedDays(
      at('2024-06-09T00:00:00Z'),
      at('2024-06-12T00:00:00Z'),
      at('2024-06-11T15:00:00Z'),
      'America/Sao_Paulo',
    );
    // 9 June São Paulo starts at 03:00Z, after `from`; 11 June has not ended at `now`.
    expect(days.map((d) => d.day)).toEqual(['2024-06-09', '2024-06-10']);
    expect(days[0]).toEqual({
      day: '2024-06-09',
      start: at('2024-06-09T03:00:00Z'),
      end: at('2024-06-10T03:00:00Z'),
    });
  });

  it('a DST day has 23 hours and its row still starts at local midnight', () => {
    const [day] = finishedDays(
      at('2024-03-31T00:00:00Z'),
      at('2024-03-31T00:00:00Z'),
      Date.now(),
      'Europe/Berlin',
    );
    expect(day).toBeUndefined();
    const [berlin] = finishedDays(
      at('2024-03-30T23:00:00Z'),
      at('2024-03-30T23:00:00Z'),
      Date.now(),
      'Europe/Berlin',
    );
    expect(berlin.day).toBe('2024-03-31');
    expect(berlin.end - berlin.start).toBe(23 * 3_600_000);
  });

  it('caps the number of rows and falls back to UTC for an unknown zone', () => {
    expect(
      finishedDays(at('2020-01-01T00:00:00Z'), at('2024-01-01T00:00:00Z'), Date.now(), 'UTC', 10),
    ).toHaveLength(10);
    expect(statisticsZone('Mars/Olympus')).toBe('UTC');
    expect(statisticsZone(undefined)).toBe('UTC');
    expect(statisticsZone('America/Sao_Paulo')).toBe('America/Sao_Paulo');
  });

  it('offset periods change at the minute the clocks change', () => {
    expect(offsetPeriods(at('2024-03-30T00:00:00Z'), at('2024-04-02T00:00:00Z'), 'Europe/Berlin')).toEqual([
      { from: at('2024-03-30T00:00:00Z'), offsetMinutes: 60 },
      { from: at('2024-03-31T01:00:00Z'), offsetMinutes: 120 },
    ]);
    expect(
      offsetPeriods(at('2024-06-01T00:00:00Z'), at('2024-07-01T00:00:00Z'), 'America/Sao_Paulo'),
    ).toEqual([{ from: at('2024-06-01T00:00:00Z'), offsetMinutes: -180 }]);
    // a :45 zone
    expect(
      offsetPeriods(at('2024-06-01T00:00:00Z'), at('2024-06-02T00:00:00Z'), 'Asia/Kathmandu')[0]
        .offsetMinutes,
    ).toBe(345);
  });
});

describe('statisticsDays: from the first day with data', () => {
  const tz = 'America/Sao_Paulo';
  it('starts at the local day of the first data, not before', () => {
    // 10 June 02:30Z is 9 June 23:30 in São Paulo
    expect(localDayStart(at('2024-06-10T02:30:00Z'), tz)).toBe(at('2024-06-09T03:00:00Z'));
    const days = statisticsDays(
      at('2024-06-01T03:00:00Z'),
      at('2024-06-11T03:00:00Z'),
      at('2024-06-20T00:00:00Z'),
      tz,
      at('2024-06-10T02:30:00Z'),
    );
    expect(days.map((d) => d.day)).toEqual(['2024-06-09', '2024-06-10', '2024-06-11']);
  });
  it('keeps `from` when the data is older, and has no rows without data', () => {
    const from = at('2024-06-05T03:00:00Z');
    const days = statisticsDays(from, from, at('2024-06-20T00:00:00Z'), tz, at('2023-01-01T00:00:00Z'));
    expect(days.map((d) => d.start)).toEqual([from]);
    expect(statisticsDays(from, from, at('2024-06-20T00:00:00Z'), tz, null)).toEqual([]);
  });
});
