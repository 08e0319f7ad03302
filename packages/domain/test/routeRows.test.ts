import { describe, expect, it } from 'vitest';
import {
  parseRoute,
  routePageRow,
  routePageRowOf,
  routePointOfRow,
  routePointsFromRows,
} from '../src/index.ts';

const positions = [
  {
    id: 7,
    deviceId: 3,
    fixTime: '2026-03-01T12:00:00.000+00:00',
    latitude: -23.5,
    longitude: -46.6,
    speed: 0.30000000000000004,
    course: 359.9,
    altitude: 760,
    address: 'Rua "A", 10 \\ São Paulo\n',
    attributes: { ignition: true },
  },
  {
    id: 9,
    deviceId: 3,
    fixTime: '2026-03-01T12:00:10.250+00:00',
    latitude: 90,
    longitude: -180,
    speed: 0,
    course: 0,
    altitude: -12.5,
    address: null,
    attributes: {},
  },
];

describe('light route page rows (issue #31)', () => {
  it('round trip: positions → rows → JSON → points are the points of the positions, without attributes', () => {
    const rows = positions.map(routePageRowOf);
    expect(rows.every((r) => routePageRow.safeParse(r).success)).toBe(true);
    const read = routePointsFromRows(JSON.parse(JSON.stringify(rows)), 3);
    const whole = parseRoute(positions);
    expect(whole.ok && read.ok).toBe(true);
    if (!whole.ok || !read.ok) return;
    expect(read.points).toEqual(whole.points.map((p) => ({ ...p, attributes: {} })));
    expect(read.points[1].time).toBe(Date.parse('2026-03-01T12:00:10.250Z'));
  });

  it('the plain checks accept exactly what the schema accepts', () => {
    const good = routePageRowOf(positions[0]);
    const cases: unknown[] = [
      good,
      routePageRowOf(positions[1]),
      [1, 2, 0, 0, 0, 0, 0, ''],
      [...good.slice(0, 7), undefined],
      good.slice(0, 7),
      [...good, 1],
      { ...good },
      null,
      'row',
      ...good.map((_, i) => good.map((v, k) => (k === i ? 'x' : v))),
      ...[0, 1].map((i) => good.map((v, k) => (k === i ? 1.5 : v))),
      ...[2, 3].map((i) => good.map((v, k) => (k === i ? 181 : v))),
      good.map((v, k) => (k === 2 ? -90.1 : v)),
      ...[2, 3, 4, 5, 6].map((i) => good.map((v, k) => (k === i ? null : v))),
      ...[4, 5, 6].map((i) => good.map((v, k) => (k === i ? Infinity : v))),
      good.map((v, k) => (k === 7 ? 5 : v)),
    ];
    for (const row of cases)
      expect({ row, plain: routePointOfRow(row, 3) !== null }).toEqual({
        row,
        plain: routePageRow.safeParse(row).success,
      });
  });

  it("a page's answers: not an array, a bad row, empty; rows out of order are sorted by time", () => {
    expect(routePointsFromRows(null, 3)).toEqual({ ok: false, error: 'route.invalidResponse' });
    expect(routePointsFromRows({}, 3)).toEqual({ ok: false, error: 'route.invalidData' });
    expect(routePointsFromRows([[1]], 3)).toEqual({ ok: false, error: 'route.invalidData' });
    expect(routePointsFromRows([], 3)).toEqual({ ok: false, error: 'route.noData' });
    const rows = positions.map(routePageRowOf).reverse();
    const r = routePointsFromRows(rows, 3);
    expect(r.ok && r.points.map((p) => p.id)).toEqual([7, 9]);
  });
});
