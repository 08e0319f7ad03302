// Driver and vehicle scores (issue #14, docs/insights.md "Scores"): 0–100 for a period, from the summed hours of
// activity (insights.ts). 100 minus the weighted penalties, each component capped, the total clamped to 0–100:
//   overspeed   weight × % of driving time above the limit  +  excess weight × mean excess in km/h
//   harsh       weight × events per 100 km, for acceleration, braking and cornering (device alarms when the
//               vehicle reports any in the period, else derived from consecutive positions)
//   idling      weight × % of engine time spent idling
//   night       weight × % of driving time between 22:00 and 06:00 local time
// The weights are server settings ({ns}.score.*), defaults below; a period without driving has no score.
import { knotsToKmh } from './units.ts';

export const SCORE_WEIGHT_KEYS = [
  'overspeed',
  'excess',
  'acceleration',
  'braking',
  'cornering',
  'idle',
  'night',
] as const;
export type ScoreWeightKey = (typeof SCORE_WEIGHT_KEYS)[number];
export type ScoreWeights = Record<ScoreWeightKey, number>;

export const DEFAULT_SCORE_WEIGHTS: ScoreWeights = {
  overspeed: 1,
  excess: 0.5,
  acceleration: 2,
  braking: 3,
  cornering: 2,
  idle: 0.3,
  night: 0.2,
};
/** A weight may be set from 0 (component ignored) to this. */
export const SCORE_WEIGHT_MAX = 100;
/** No component takes away more than this many points. */
export const SCORE_COMPONENT_CAP = 40;
/** Below this distance (metres) the harsh rates are not judged (a few metres would give huge rates). */
export const SCORE_MIN_DISTANCE = 1000;

/** The server attribute of a weight (without the {ns} prefix). */
export const scoreWeightAttribute = (key: ScoreWeightKey) => `score.${key}`;

/** Weights from the server attributes ({ns}.score.*): a missing or invalid value keeps its default. */
export function scoreWeightsFrom(attrs: Record<string, unknown>, ns = 'rastro'): ScoreWeights {
  const out = { ...DEFAULT_SCORE_WEIGHTS };
  for (const key of SCORE_WEIGHT_KEYS) {
    const raw = attrs[`${ns}.${scoreWeightAttribute(key)}`];
    const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= SCORE_WEIGHT_MAX) out[key] = n;
  }
  return out;
}

/** The summed activity a score is made from (a driver's or a vehicle's, over the period). */
export interface ScoreTotals {
  distance: number;
  drivingMs: number;
  idleMs: number;
  nightMs: number;
  overspeedMs: number;
  overspeedExcess: number;
  harshAcceleration: number;
  harshBraking: number;
  harshCornering: number;
  alarmAcceleration: number;
  alarmBraking: number;
  alarmCornering: number;
}

export interface ScoreComponent {
  /** The measured value: a percentage, km/h or events per 100 km. */
  value: number;
  /** Points taken away. */
  penalty: number;
}

export interface ScoreBreakdown {
  /** 0–100, or null when the period has no driving. */
  score: number | null;
  overspeed: ScoreComponent;
  excess: ScoreComponent;
  acceleration: ScoreComponent;
  braking: ScoreComponent;
  cornering: ScoreComponent;
  idle: ScoreComponent;
  night: ScoreComponent;
  /** Whether the harsh counts came from the device's alarms. */
  fromAlarms: boolean;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const component = (value: number, weight: number): ScoreComponent => ({
  value: round1(value),
  penalty: round1(Math.min(SCORE_COMPONENT_CAP, Math.max(0, value * weight))),
});

export function scoreOf(t: ScoreTotals, weights: ScoreWeights = DEFAULT_SCORE_WEIGHTS): ScoreBreakdown {
  const driving = t.drivingMs > 0;
  const pct = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);
  const fromAlarms = t.alarmAcceleration + t.alarmBraking + t.alarmCornering > 0;
  const per100 = (n: number) => (t.distance >= SCORE_MIN_DISTANCE ? n / (t.distance / 100_000) : 0);
  const excessKmh = t.overspeedMs > 0 ? knotsToKmh(t.overspeedExcess / t.overspeedMs) : 0;
  const parts = {
    overspeed: component(pct(t.overspeedMs, t.drivingMs), weights.overspeed),
    excess: component(excessKmh, weights.excess),
    acceleration: component(
      per100(fromAlarms ? t.alarmAcceleration : t.harshAcceleration),
      weights.acceleration,
    ),
    braking: component(per100(fromAlarms ? t.alarmBraking : t.harshBraking), weights.braking),
    cornering: component(per100(fromAlarms ? t.alarmCornering : t.harshCornering), weights.cornering),
    idle: component(pct(t.idleMs, t.idleMs + t.drivingMs), weights.idle),
    night: component(pct(t.nightMs, t.drivingMs), weights.night),
  };
  const lost = round1(Object.values(parts).reduce((sum, p) => sum + p.penalty, 0));
  return {
    score: driving ? Math.round(Math.min(100, Math.max(0, 100 - lost))) : null,
    ...parts,
    fromAlarms,
  };
}

// ---- the ranking (GET /{ns}/scores) ----------------------------------------------------------------------------

export const SCORE_SUBJECTS = ['driver', 'device'] as const;
export type ScoreSubject = (typeof SCORE_SUBJECTS)[number];

export interface ScoreRow {
  /** driverUniqueId or device id (as text) */
  key: string;
  name: string;
  distance: number;
  drivingMs: number;
  breakdown: ScoreBreakdown;
}

export interface ScoresAnswer {
  from: string;
  to: string;
  by: ScoreSubject;
  weights: ScoreWeights;
  /** Best first; rows without a score last. */
  rows: ScoreRow[];
}

/** Ranking order: highest score first, then the longer distance, then the name; unscored rows last. */
export function rankScores(rows: ScoreRow[]): ScoreRow[] {
  return [...rows].sort((a, b) => {
    const sa = a.breakdown.score ?? -1;
    const sb = b.breakdown.score ?? -1;
    return sb - sa || b.distance - a.distance || a.name.localeCompare(b.name);
  });
}
