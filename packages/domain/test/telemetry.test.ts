import { describe, expect, it } from 'vitest';
import {
  availableMetrics,
  DEFAULT_UNITS,
  parseTelemetry,
  telemetrySeries,
  TELEMETRY_METRICS,
  type Units,
} from '../src/index.ts';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const pos = (i: number, attributes: Record<string, unknown>) => ({
  id: i,
  latitude: 0,
  longitude: 0,
  speed: 10 * i,
  altitude: 100 * i,
  course: 0,
  fixTime: new Date(T0 + i * 60_000).toISOString(),
  attributes,
});
const kmh: Units = { ...DEFAULT_UNITS, speedUnit: 'kmh', altitudeUnit: 'ft' };

describe('telemetry (SPEC §8, §9)', () => {
  it('errors: invalid server response, no data for the period', () => {
    expect(parseTelemetry(undefined)).toEqual({ ok: false, error: 'invalidResponse' });
    expect(parseTelemetry({})).toEqual({ ok: false, error: 'invalidResponse' });
    expect(parseTelemetry([{ id: 'x' }])).toEqual({ ok: false, error: 'invalidResponse' });
    expect(parseTelemetry([])).toEqual({ ok: false, error: 'noData' });
  });

  it('six metrics; series in the user units with gaps where a position lacks the value', () => {
    expect(TELEMETRY_METRICS).toEqual(['speed', 'altitude', 'power', 'battery', 'fuel', 'rpm']);
    const r = parseTelemetry([
      pos(0, { power: 12.6, rpm: 800 }),
      pos(1, { batteryLevel: 3.9 }),
      pos(2, { power: '11.4' }),
    ]);
    if (!r.ok) throw new Error(r.error);
    const speed = telemetrySeries(r.points, 'speed', kmh);
    expect(speed.x).toEqual([T0 / 1000, T0 / 1000 + 60, T0 / 1000 + 120]);
    expect(speed.y).toEqual([0, 18.52, 37.04]); // 10 kn = 18.52 km/h
    expect(telemetrySeries(r.points, 'altitude', kmh).y).toEqual([0, 328.08, 656.17]); // 100 m = 328.08 ft
    const power = telemetrySeries(r.points, 'power', kmh);
    expect(power).toMatchObject({ y: [12.6, null, 11.4], count: 2, min: 11.4, max: 12.6 });
    expect(telemetrySeries(r.points, 'battery', kmh).y).toEqual([null, 3.9, null]);
    expect(availableMetrics(r.points, kmh)).toEqual(['speed', 'altitude', 'power', 'battery', 'rpm']);
  });
});
