import { describe, expect, it } from 'vitest';
import { deviceLink, figureLink, insightsQuery, scoresQuery } from './dashboardQuery.ts';

const f = { deviceIds: [3], groupIds: [9], from: '2026-11-20T03:00:00.000Z', to: '2026-11-21T02:59:59.999Z' };

describe('dashboard queries and links', () => {
  it('the API query repeats deviceId and groupId as the reports do', () => {
    expect(insightsQuery(f)).toBe(
      'deviceId=3&groupId=9&from=2026-11-20T03%3A00%3A00.000Z&to=2026-11-21T02%3A59%3A59.999Z',
    );
    expect(scoresQuery(f, 'device')).toContain('&by=device');
  });

  it('each figure opens the report that explains it, with the same devices and period', () => {
    expect(figureLink('distance', f)).toMatch(/^\/reports\/resume\?deviceId=3&groupId=9&from=/);
    expect(figureLink('drivingTime', f)).toMatch(/^\/reports\/travels\?/);
    expect(figureLink('idleTime', f)).toMatch(/^\/reports\/stops\?/);
    expect(figureLink('stops', f)).toMatch(/^\/reports\/stops\?/);
    expect(figureLink('overspeeds', f)).toMatch(/^\/reports\/events\?.*&type=deviceOverspeed$/);
    expect(figureLink('fuel', f)).toMatch(/^\/reports\/resume\?/);
    expect(deviceLink('travels', 12, f)).toMatch(/^\/reports\/travels\?deviceId=12&from=/);
  });
});
