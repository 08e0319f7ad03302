// Telemetry chart data (SPEC §2 "telemetry chart", §8 telemetry errors, §9 ranges 24 h / 7 d / 30 d): series of
// speed, altitude, power, battery, fuel and rpm from the positions of a period, in the user's units.
import { parseRoute, type RoutePoint } from './route.ts';
import { convertAltitude, convertSpeed, UNIT_LABELS, type Units } from './units.ts';

export const TELEMETRY_METRICS = ['speed', 'altitude', 'power', 'battery', 'fuel', 'rpm'] as const;
export type TelemetryMetric = (typeof TELEMETRY_METRICS)[number];

/** SPEC §8: 'invalid server response' and 'no data for the period'. */
export type TelemetryError = 'invalidResponse' | 'noData';

export type TelemetryParse = { ok: true; points: RoutePoint[] } | { ok: false; error: TelemetryError };

/** The positions answer: an array of positions, else invalidResponse; empty ⇒ noData. */
export function parseTelemetry(response: unknown): TelemetryParse {
  const r = parseRoute(response);
  if (r.ok) return r;
  return { ok: false, error: r.error === 'route.noData' ? 'noData' : 'invalidResponse' };
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** One metric's value at a point (null when the position does not carry it). */
export function metricValue(p: RoutePoint, metric: TelemetryMetric, units: Units): number | null {
  switch (metric) {
    case 'speed':
      return Math.round(convertSpeed(p.speed, units.speedUnit) * 100) / 100;
    case 'altitude':
      return Math.round(convertAltitude(p.altitude, units.altitudeUnit) * 100) / 100;
    case 'battery':
      return num(p.attributes.battery) ?? num(p.attributes.batteryLevel);
    default:
      return num(p.attributes[metric]);
  }
}

export function metricUnit(metric: TelemetryMetric, units: Units): string {
  switch (metric) {
    case 'speed':
      return UNIT_LABELS[units.speedUnit];
    case 'altitude':
      return UNIT_LABELS[units.altitudeUnit];
    case 'power':
    case 'battery':
      return 'V';
    case 'fuel':
      return '';
    case 'rpm':
      return 'rpm';
  }
}

export interface TelemetrySeries {
  /** seconds since epoch (uPlot's x) */
  x: number[];
  y: Array<number | null>;
  /** points that carry the metric */
  count: number;
  min: number | null;
  max: number | null;
}

export function telemetrySeries(
  points: readonly RoutePoint[],
  metric: TelemetryMetric,
  units: Units,
): TelemetrySeries {
  const x: number[] = new Array(points.length);
  const y: Array<number | null> = new Array(points.length);
  let count = 0;
  let min: number | null = null;
  let max: number | null = null;
  for (let i = 0; i < points.length; i++) {
    x[i] = points[i].time / 1000;
    const v = metricValue(points[i], metric, units);
    y[i] = v;
    if (v !== null) {
      count++;
      if (min === null || v < min) min = v;
      if (max === null || v > max) max = v;
    }
  }
  return { x, y, count, min, max };
}

/** Metrics present in at least one point (the chart offers only these). */
export function availableMetrics(points: readonly RoutePoint[], units: Units): TelemetryMetric[] {
  return TELEMETRY_METRICS.filter(
    (m) => m === 'speed' || points.some((p) => metricValue(p, m, units) !== null),
  );
}
