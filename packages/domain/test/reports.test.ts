import { describe, expect, it } from 'vitest';
import {
  buildReportQuery,
  paginate,
  periodDays,
  reportRange,
  routeLoadRequest,
  telemetryRange,
  timeZoneOffset,
  XLSX_ACCEPT,
} from '../src/reports.ts';

// 2026-03-10 14:30 in São Paulo (UTC-3) = 17:30Z
const now = Date.parse('2026-03-10T17:30:00Z');

describe('report ranges in a time zone', () => {
  it('names a period by its local days: "today" in São Paulo is one day, not two', () => {
    const today = reportRange('today', now, 'America/Sao_Paulo');
    expect(periodDays(today, 'America/Sao_Paulo')).toEqual({ first: '2026-03-10', last: '2026-03-10' });
    expect(periodDays(today, 'UTC').last).toBe('2026-03-11'); // the UTC date of its last millisecond
    const week = reportRange('last7', now, 'America/Sao_Paulo');
    expect(periodDays(week, 'America/Sao_Paulo')).toEqual({ first: '2026-03-04', last: '2026-03-10' });
  });

  it('today and yesterday are whole local days', () => {
    expect(reportRange('today', now, 'America/Sao_Paulo')).toEqual({
      from: '2026-03-10T03:00:00.000Z',
      to: '2026-03-11T02:59:59.999Z',
    });
    expect(reportRange('yesterday', now, 'America/Sao_Paulo')).toEqual({
      from: '2026-03-09T03:00:00.000Z',
      to: '2026-03-10T02:59:59.999Z',
    });
    expect(reportRange('today', now, 'UTC')).toEqual({
      from: '2026-03-10T00:00:00.000Z',
      to: '2026-03-10T23:59:59.999Z',
    });
  });

  it('local date differs from UTC date near midnight', () => {
    const late = Date.parse('2026-03-11T01:00:00Z'); // still 10 March 22:00 in São Paulo
    expect(reportRange('today', late, 'America/Sao_Paulo').from).toBe('2026-03-10T03:00:00.000Z');
    expect(reportRange('today', late, 'Asia/Tokyo').from).toBe('2026-03-10T15:00:00.000Z');
  });

  it('last 7 / 30 / 90 days end today', () => {
    expect(reportRange('last7', now, 'America/Sao_Paulo')).toEqual({
      from: '2026-03-04T03:00:00.000Z',
      to: '2026-03-11T02:59:59.999Z',
    });
    expect(reportRange('last30', now, 'UTC').from).toBe('2026-02-09T00:00:00.000Z');
    expect(reportRange('last90', now, 'UTC').from).toBe('2025-12-11T00:00:00.000Z');
  });

  it('handles DST and bad zones', () => {
    // Europe/Berlin switches to summer time on 2026-03-29
    expect(reportRange('today', Date.parse('2026-03-29T12:00:00Z'), 'Europe/Berlin')).toEqual({
      from: '2026-03-28T23:00:00.000Z',
      to: '2026-03-29T21:59:59.999Z',
    });
    expect(timeZoneOffset(now, 'America/Sao_Paulo')).toBe(-3 * 3600_000);
    expect(reportRange('today', now, 'Not/AZone')).toEqual(reportRange('today', now, 'UTC'));
  });

  it('telemetry ranges 24 h, 7 d, 30 d', () => {
    expect(telemetryRange('24h', now)).toEqual({
      from: '2026-03-09T17:30:00.000Z',
      to: '2026-03-10T17:30:00.000Z',
    });
    expect(telemetryRange('7d', now).from).toBe('2026-03-03T17:30:00.000Z');
    expect(telemetryRange('30d', now).from).toBe('2026-02-08T17:30:00.000Z');
  });
});

describe('report query (SPEC §7)', () => {
  it('repeats deviceId and groupId, type allEvents, ISO dates, daily false', () => {
    expect(
      buildReportQuery({
        deviceIds: [1, 2],
        groupIds: [3],
        from: new Date(now),
        to: '2026-03-11T00:00:00.000Z',
      }),
    ).toBe(
      'deviceId=1&deviceId=2&groupId=3&type=allEvents&from=2026-03-10T17%3A30%3A00.000Z&to=2026-03-11T00%3A00%3A00.000Z&daily=false',
    );
    expect(buildReportQuery({ from: 'a', to: 'b', types: ['alarm', 'ignitionOn'], daily: true })).toBe(
      'type=alarm&type=ignitionOn&from=a&to=b&daily=true',
    );
  });
  it('route load request and export accept header', () => {
    expect(routeLoadRequest(5, 'a', 'b')).toEqual({
      path: '/api/reports/route?deviceId=5&from=a&to=b',
      accept: 'application/json',
    });
    expect(routeLoadRequest(5, 'a', 'b', true).accept).toBe(XLSX_ACCEPT);
  });
});

describe('report list paging', () => {
  const items = Array.from({ length: 51 }, (_, i) => i);
  it('defaults page 1, limit 25', () => {
    const p = paginate(items);
    expect(p).toMatchObject({ page: 1, limit: 25, total: 51, pages: 3 });
    expect(p.items).toHaveLength(25);
    expect(paginate(items, 3).items).toEqual([50]);
    expect(paginate(items, 9).page).toBe(3);
    expect(paginate(items, 0).page).toBe(1);
    expect(paginate([], 1)).toMatchObject({ pages: 1, items: [] });
  });
});
