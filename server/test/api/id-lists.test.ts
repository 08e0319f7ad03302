// Issue #27 "one home per rule": id lists in query strings (CONTRACT §4, a repeated parameter) were parsed by four
// copies with three behaviours — blanks accepted by /api/devices but refused by /api/positions, `1e0` accepted as 1
// by the reports, `0` accepted by the lists. Every route now uses the domain's parseIdList: the same value is
// accepted or refused alike everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, makeTestApp, type TestApp } from '../helpers/index.ts';

const SPAN = 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z';

describe('id lists: one rule on every route', () => {
  let t: TestApp;
  let id: number;
  const routes = (v: string) => [
    `/api/devices?id=${v}`,
    `/api/positions?id=${v}`,
    `/api/reports/summary?deviceId=${v}&${SPAN}`,
    `/api/reports/events?groupId=${v}&${SPAN}`,
  ];

  beforeAll(async () => {
    t = await makeTestApp();
    id = (await createDevice(t)).id;
  });
  afterAll(async () => t.close());

  it('a value with blanks around it is an id everywhere', async () => {
    for (const url of [`/api/devices?id=%20${id}`, `/api/positions?id=${id}%20`]) {
      expect((await api(t.app, t.admin, 'GET', url)).statusCode, url).toBe(200);
    }
    const devices = (await api(t.app, t.admin, 'GET', `/api/devices?id=%20${id}`)).json() as { id: number }[];
    expect(devices.map((d) => d.id)).toEqual([id]);
    expect(
      (await api(t.app, t.admin, 'GET', `/api/reports/summary?deviceId=%20${id}&${SPAN}`)).statusCode,
    ).toBe(200);
  });

  it.each(['1e0', '0', '1,2', '-1', '1.0', '0x1'])('"%s" is refused with 400 everywhere', async (v) => {
    for (const url of routes(encodeURIComponent(v))) {
      const res = await api(t.app, t.admin, 'GET', url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 120)}`).toBe(400);
    }
  });

  it('a repeated parameter lists several ids', async () => {
    const other = (await createDevice(t)).id;
    const res = await api(t.app, t.admin, 'GET', `/api/devices?id=${id}&id=${other}`);
    expect((res.json() as { id: number }[]).map((d) => d.id).sort((a, b) => a - b)).toEqual(
      [id, other].sort((a, b) => a - b),
    );
  });
});
