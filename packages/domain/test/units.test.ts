import { describe, expect, it } from 'vitest';
import {
  convertAltitude,
  convertDistance,
  convertSpeed,
  convertVolume,
  distanceToMeters,
  knotsToKmh,
  knotsToMph,
  knotsToMps,
  kmhToKnots,
  kmhToMps,
  kmToMiles,
  mpsToKmh,
  mpsToKnots,
  metersToKm,
  msToHours,
  resolveUnits,
  secondsToHours,
  speedToKnots,
} from '../src/units.ts';
import {
  circleAreaKm2,
  formatAltitude,
  formatCoordinate,
  formatCurrency,
  formatDistance,
  formatDuration,
  formatEngineHours,
  formatSpeed,
  formatVolume,
  truncate,
} from '../src/format.ts';

describe('unit conversions (SPEC §9)', () => {
  it('1 knot = 1.852 km/h = 1.15078 mph', () => {
    expect(knotsToKmh(1)).toBe(1.852);
    expect(knotsToMph(1)).toBe(1.15078);
    expect(convertSpeed(10, 'kmh')).toBeCloseTo(18.52, 10);
    expect(convertSpeed(10, 'mph')).toBeCloseTo(11.5078, 10);
    expect(convertSpeed(10, 'kn')).toBe(10);
    expect(speedToKnots(18.52, 'kmh')).toBeCloseTo(10, 10);
    expect(speedToKnots(11.5078, 'mph')).toBeCloseTo(10, 10);
  });

  it('1 knot = 1852 m per hour in m/s; 1 m/s = 3.6 km/h (the one home of every speed factor)', () => {
    expect(knotsToMps(1)).toBeCloseTo(0.514444, 6);
    expect(mpsToKnots(knotsToMps(7))).toBeCloseTo(7, 12);
    expect(mpsToKnots(1)).toBeCloseTo(1.943844, 6);
    expect(kmhToMps(36)).toBe(10);
    expect(mpsToKmh(10)).toBe(36);
    expect(kmhToKnots(knotsToKmh(12))).toBeCloseTo(12, 12);
    expect(mpsToKmh(knotsToMps(1))).toBeCloseTo(knotsToKmh(1), 12);
  });

  it('metres to km /1000, miles = km × 0.621371, nmi = m / 1852', () => {
    expect(metersToKm(1500)).toBe(1.5);
    expect(kmToMiles(100)).toBeCloseTo(62.1371, 10);
    expect(convertDistance(100000, 'mi')).toBeCloseTo(62.1371, 10);
    expect(convertDistance(1852, 'nmi')).toBe(1);
    expect(convertDistance(2500, 'km')).toBe(2.5);
    expect(distanceToMeters(62.1371, 'mi')).toBeCloseTo(100000, 6);
    expect(distanceToMeters(1, 'nmi')).toBe(1852);
    expect(distanceToMeters(2.5, 'km')).toBe(2500);
  });

  it('hours = seconds / 3600, engine ms to hours', () => {
    expect(secondsToHours(5400)).toBe(1.5);
    expect(msToHours(7_200_000)).toBe(2);
  });

  it('altitude and volume', () => {
    expect(convertAltitude(100, 'ft')).toBeCloseTo(328.084, 6);
    expect(convertAltitude(100, 'm')).toBe(100);
    expect(convertVolume(10, 'usGallon')).toBeCloseTo(2.64172, 6);
    expect(convertVolume(10, 'impGallon')).toBeCloseTo(2.19969, 6);
    expect(convertVolume(10, 'ltr')).toBe(10);
  });

  it('resolves units user → server → default, server first when forceSettings', () => {
    const user = { attributes: { speedUnit: 'kmh' } };
    const server = { attributes: { speedUnit: 'mph', distanceUnit: 'mi', volumeUnit: 'bogus' } };
    expect(resolveUnits(user, server)).toEqual({
      speedUnit: 'kmh',
      distanceUnit: 'mi',
      altitudeUnit: 'm',
      volumeUnit: 'ltr',
    });
    expect(resolveUnits(user, { ...server, forceSettings: true }).speedUnit).toBe('mph');
    expect(resolveUnits(null, null, 'en-US')).toEqual({
      speedUnit: 'kn',
      distanceUnit: 'km',
      altitudeUnit: 'm',
      volumeUnit: 'ltr',
    });
  });
});

describe('formatting', () => {
  it('speed, distance, altitude, volume with unit labels', () => {
    expect(formatSpeed(10, 'kmh', 'en-US')).toBe('19 km/h');
    expect(formatSpeed(10, 'mph', 'en-US', 1)).toBe('11.5 mph');
    expect(formatDistance(12345, 'km', 'pt-BR')).toBe('12,35 km');
    expect(formatDistance(12345, 'km', 'en-US')).toBe('12.35 km');
    expect(formatAltitude(100, 'ft', 'en-US')).toBe('328 ft');
    expect(formatVolume(10, 'ltr', 'en-US')).toBe('10.0 l');
    expect(formatEngineHours(5_400_000, 'en-US')).toBe('1.5 h');
  });

  it('durations: "1 h 05 min"', () => {
    expect(formatDuration(3_900_000)).toBe('1 h 05 min');
    expect(formatDuration(3_600_000)).toBe('1 h 00 min');
    expect(formatDuration(3_599_999)).toBe('59 min');
    expect(formatDuration(60_000)).toBe('1 min');
    expect(formatDuration(59_999)).toBe('59 s');
    expect(formatDuration(90_000_000)).toBe('25 h 00 min');
    expect(formatDuration(-5)).toBe('0 s');
  });

  it('currency R$ in pt-BR and es, $ in en-US, 2 decimals', () => {
    expect(formatCurrency(1234.5, 'pt-BR')).toBe('R$ 1.234,50');
    expect(formatCurrency(1234.5, 'es')).toContain('R$');
    expect(formatCurrency(12345.5, 'es')).toBe('12.345,50 R$');
    expect(formatCurrency(1234.5, 'es-ES')).toContain('R$');
    expect(formatCurrency(1234.5, 'en-US')).toBe('$1,234.50');
    expect(formatCurrency(0.005, 'en-US')).toBe('$0.01');
  });

  it('coordinates dd / ddm / dms', () => {
    expect(formatCoordinate(-23.55052, 'latitude', 'dd')).toBe('-23.550520°');
    expect(formatCoordinate(-23.55052, 'latitude', 'ddm')).toBe("23° 33.0312' S");
    expect(formatCoordinate(-46.633308, 'longitude', 'dms')).toBe('46° 37\' 59.91" W');
    expect(formatCoordinate(10.5, 'latitude', 'dms')).toBe('10° 30\' 0.00" N');
    expect(formatCoordinate(10.5, 'longitude', 'unknown')).toBe('10.500000°');
  });

  it('truncate and circle area', () => {
    expect(truncate('a'.repeat(20), 20)).toBe('a'.repeat(20));
    expect(truncate('a'.repeat(21), 20)).toBe(`${'a'.repeat(20)}…`);
    expect(circleAreaKm2(150)).toBe(0.07);
    expect(circleAreaKm2(1000)).toBe(3.14);
  });
});
