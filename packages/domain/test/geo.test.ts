import { describe, expect, it } from 'vitest';
import {
  EARTH_RADIUS_M,
  areaKm2,
  bearing,
  destination,
  distanceToSegment,
  formatArea,
  haversine,
  isInsideArea,
  parseArea,
  pathLength,
} from '../src/geo.ts';

describe('haversine', () => {
  it('uses R = 6 378 137 m: one degree of latitude is R·π/180', () => {
    expect(EARTH_RADIUS_M).toBe(6378137);
    const expected = (6378137 * Math.PI) / 180; // 111 319.49 m
    expect(haversine(0, 0, 1, 0)).toBeCloseTo(expected, 3);
    expect(haversine(0, 0, 0, 1)).toBeCloseTo(expected, 3);
  });
  it('one degree of longitude at 60° is half of it (cos 60° = 0.5), within the great-circle bulge', () => {
    const d = haversine(60, 0, 60, 1);
    expect(d).toBeGreaterThan(55_600);
    expect(d).toBeLessThan(55_700);
  });
  it('is zero for the same point and symmetric', () => {
    expect(haversine(-23.55, -46.63, -23.55, -46.63)).toBe(0);
    expect(haversine(-23.55, -46.63, -23.6, -46.7)).toBeCloseTo(haversine(-23.6, -46.7, -23.55, -46.63), 9);
  });
  it('destination and bearing invert haversine', () => {
    const from = { latitude: -23.55, longitude: -46.63 };
    const to = destination(from, 45, 1000);
    expect(haversine(from.latitude, from.longitude, to.latitude, to.longitude)).toBeCloseTo(1000, 6);
    expect(bearing(from, to)).toBeCloseTo(45, 3);
  });
  it('pathLength sums the legs', () => {
    const a = { latitude: 0, longitude: 0 };
    const b = { latitude: 1, longitude: 0 };
    const c = { latitude: 2, longitude: 0 };
    expect(pathLength([a, b, c])).toBeCloseTo((2 * 6378137 * Math.PI) / 180, 3);
  });
});

describe('parseArea (latitude first)', () => {
  it('parses the CONTRACT circle example', () => {
    expect(parseArea('CIRCLE (48.8566 2.3522, 500)')).toEqual({
      type: 'circle',
      center: { latitude: 48.8566, longitude: 2.3522 },
      radius: 500,
    });
  });
  it('parses a polygon and drops the repeated closing point', () => {
    const a = parseArea('POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0))');
    expect(a?.type).toBe('polygon');
    expect(a && a.type === 'polygon' ? a.points.length : 0).toBe(4);
  });
  it('parses a linestring', () => {
    const a = parseArea('LINESTRING (-23.5 -46.6, -23.6 -46.7)');
    expect(a).toEqual({
      type: 'linestring',
      points: [
        { latitude: -23.5, longitude: -46.6 },
        { latitude: -23.6, longitude: -46.7 },
      ],
    });
  });
  it('rejects garbage, out-of-range coordinates, zero radius and short shapes', () => {
    for (const bad of [
      '',
      'POINT (1 2)',
      'CIRCLE (1 2)',
      'CIRCLE (91 0, 10)',
      'CIRCLE (1 2, 0)',
      'POLYGON ((0 0, 1 1, 0 0))',
      'LINESTRING (0 0)',
      'POLYGON ((0 0, 0 1, 1 1), (0 0, 1 1, 1 0))',
      'LINESTRING (a b, c d)',
    ]) {
      expect(parseArea(bad), bad).toBeNull();
    }
  });
  it('formatArea round-trips', () => {
    for (const s of [
      'CIRCLE (-23.55 -46.63, 150)',
      'POLYGON ((0 0, 0 1, 1 1, 0 0))',
      'LINESTRING (0 0, 1 1)',
    ]) {
      const a = parseArea(s);
      expect(a).not.toBeNull();
      expect(formatArea(a!)).toBe(s);
    }
  });
});

describe('point in area', () => {
  it('circle: inside at 499 m, outside at 501 m of a 500 m radius', () => {
    const area = parseArea('CIRCLE (-23.55 -46.63, 500)')!;
    const c = { latitude: -23.55, longitude: -46.63 };
    expect(isInsideArea(area, destination(c, 90, 499))).toBe(true);
    expect(isInsideArea(area, destination(c, 90, 501))).toBe(false);
  });
  it('polygon: square, including a concave L shape', () => {
    const sq = parseArea('POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0))')!;
    expect(isInsideArea(sq, { latitude: 0.5, longitude: 0.5 })).toBe(true);
    expect(isInsideArea(sq, { latitude: 1.5, longitude: 0.5 })).toBe(false);
    const l = parseArea('POLYGON ((0 0, 0 2, 1 2, 1 1, 2 1, 2 0, 0 0))')!;
    expect(isInsideArea(l, { latitude: 1.5, longitude: 0.5 })).toBe(true);
    expect(isInsideArea(l, { latitude: 1.5, longitude: 1.5 })).toBe(false);
  });
  it('line: within polylineDistance metres (default 25)', () => {
    const line = parseArea('LINESTRING (0 0, 0 0.01)')!;
    const mid = { latitude: 0, longitude: 0.005 };
    expect(isInsideArea(line, destination(mid, 0, 24))).toBe(true);
    expect(isInsideArea(line, destination(mid, 0, 26))).toBe(false);
    expect(isInsideArea(line, destination(mid, 0, 40), 50)).toBe(true);
    // beyond the end, the distance is to the end point
    expect(
      distanceToSegment(
        { latitude: 0, longitude: 0.011 },
        { latitude: 0, longitude: 0 },
        { latitude: 0, longitude: 0.01 },
      ),
    ).toBeCloseTo(haversine(0, 0.01, 0, 0.011), 0);
  });
});

describe('areaKm2', () => {
  it('circle of 1000 m is π km² (3.14 with 2 decimals)', () => {
    expect(areaKm2(parseArea('CIRCLE (-23.55 -46.63, 1000)')!).toFixed(2)).toBe('3.14');
  });
  it('a 0.01° square at the equator is (R·π/180·0.01)² within 0.1 %', () => {
    const side = ((6378137 * Math.PI) / 180) * 0.01;
    const expected = (side * side) / 1e6;
    const got = areaKm2(parseArea('POLYGON ((0 0, 0 0.01, 0.01 0.01, 0.01 0, 0 0))')!);
    expect(Math.abs(got - expected) / expected).toBeLessThan(0.001);
  });
  it('a line has no area', () => {
    expect(areaKm2(parseArea('LINESTRING (0 0, 1 1)')!)).toBe(0);
  });
});
