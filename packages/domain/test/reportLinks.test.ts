import { describe, expect, it } from 'vitest';
import { readReportLink, reportLink } from '../src/index.ts';

describe('report links', () => {
  it('round trip: devices, groups, exact period and event types', () => {
    const href = reportLink('events', {
      deviceIds: [4, 7],
      groupIds: [2],
      from: '2026-11-19T03:00:00.000Z',
      to: '2026-11-21T02:59:59.999Z',
      types: ['deviceOverspeed'],
    });
    expect(href).toBe(
      '/reports/events?deviceId=4&deviceId=7&groupId=2&from=2026-11-19T03%3A00%3A00.000Z&to=2026-11-21T02%3A59%3A59.999Z&type=deviceOverspeed',
    );
    expect(readReportLink(href.split('?')[1])).toEqual({
      deviceIds: [4, 7],
      groupIds: [2],
      from: '2026-11-19T03:00:00.000Z',
      to: '2026-11-21T02:59:59.999Z',
      types: ['deviceOverspeed'],
    });
  });

  it('no period, a reversed one or junk ⇒ no link; bad ids and types are dropped', () => {
    expect(readReportLink('')).toBeNull();
    expect(readReportLink('from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z')).toBeNull();
    expect(readReportLink('from=yesterday&to=now')).toBeNull();
    expect(
      readReportLink(
        'deviceId=-1&deviceId=x&deviceId=3&type=<b>&from=2026-11-20T00:00:00Z&to=2026-11-20T01:00:00Z',
      ),
    ).toEqual({
      deviceIds: [3],
      groupIds: [],
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-20T01:00:00.000Z',
    });
  });
});
