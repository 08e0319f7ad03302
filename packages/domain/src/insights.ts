// Fleet insights (issue #14, docs/insights.md): what one position adds to its device's hour of activity, and the
// dashboard's answer. The server keeps one row of activity per device, hour (UTC) and driver, filled at ingestion
// from each position and the one before it (activityStep); the dashboard and the scores sum those rows, so a
// month of a hundred vehicles is a few thousand rows, not millions of positions. Speeds in knots, distances in
// metres, times in ms.
import { knotsToMps } from './units.ts';

/** Intervals longer than this between two positions count no driving, idling or overspeed (the state is unknown). */
export const MAX_ACTIVITY_INTERVAL_MS = 10 * 60_000;
/** Harsh manoeuvres are derived only from positions at most this far apart (longer gaps hide the change). */
export const MAX_HARSH_INTERVAL_MS = 10_000;
/** Derived harsh thresholds, m/s² (about 0.3 g accelerating, 0.35 g braking and turning). */
export const HARSH_ACCELERATION_MPS2 = 3;
export const HARSH_BRAKING_MPS2 = 3.5;
export const HARSH_CORNERING_MPS2 = 3.5;
/** Cornering is only judged above this speed (m/s, 18 km/h): slow manoeuvres turn sharply without force. */
export const HARSH_CORNERING_MIN_MPS = 5;
/** Night driving: local hours from NIGHT_START (inclusive) to NIGHT_END (exclusive). */
export const NIGHT_START_HOUR = 22;
export const NIGHT_END_HOUR = 6;
/** Device alarms (Traccar's values) counted as harsh manoeuvres. */
export const HARSH_ALARMS = {
  hardAcceleration: 'alarmAcceleration',
  hardBraking: 'alarmBraking',
  hardCornering: 'alarmCornering',
} as const;

export const HOUR_MS = 3_600_000;

/** What one interval between two positions adds to an hour of activity (all sums). */
export interface ActivityStep {
  distance: number;
  drivingMs: number;
  idleMs: number;
  overspeedMs: number;
  /** ∫ (speed − limit) dt over the overspeed time, knot·ms. */
  overspeedExcess: number;
  harshAcceleration: number;
  harshBraking: number;
  harshCornering: number;
  alarmAcceleration: number;
  alarmBraking: number;
  alarmCornering: number;
  maxSpeed: number;
}

export interface ActivityPoint {
  /** ms */
  fixTime: number;
  /** knots */
  speed: number;
  /** degrees */
  course: number;
  motion: boolean;
  ignition: boolean | undefined;
  /** metres from the previous position (the position's `distance` attribute) */
  distance: number;
  /** comma-separated alarms of the position */
  alarm: string;
}

/** The additive sums of an hour of activity (everything but maxSpeed): the stored columns and what is summed. */
export const ACTIVITY_SUMS = [
  'distance',
  'drivingMs',
  'idleMs',
  'overspeedMs',
  'overspeedExcess',
  'harshAcceleration',
  'harshBraking',
  'harshCornering',
  'alarmAcceleration',
  'alarmBraking',
  'alarmCornering',
] as const satisfies ReadonlyArray<keyof ActivityStep>;

export const emptyStep = (): ActivityStep => ({
  distance: 0,
  drivingMs: 0,
  idleMs: 0,
  overspeedMs: 0,
  overspeedExcess: 0,
  harshAcceleration: 0,
  harshBraking: 0,
  harshCornering: 0,
  alarmAcceleration: 0,
  alarmBraking: 0,
  alarmCornering: 0,
  maxSpeed: 0,
});

const alarmsOf = (text: string) =>
  new Set(
    text
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
  );

/**
 * What the interval from `prev` to `cur` adds (docs/insights.md "How the figures are made"):
 *  - distance: the position's step, always;
 *  - the interval (0 < dt ≤ 10 min) is driving when either end is moving, else idling when both ends have the
 *    ignition on; it is overspeed time when the closing position is above the limit (knots, > 0), with the excess
 *    (speed − limit) × dt;
 *  - harsh acceleration / braking when the speed changes by more than the threshold per second between positions
 *    at most 10 s apart; harsh cornering when speed × turn rate (lateral acceleration) does, above 18 km/h;
 *  - a device's own alarm (hardAcceleration, hardBraking, hardCornering) that the previous position did not carry.
 */
export function activityStep(
  prev: ActivityPoint | null,
  cur: ActivityPoint,
  speedLimit: number,
): ActivityStep {
  const step = emptyStep();
  step.distance = Number.isFinite(cur.distance) && cur.distance > 0 ? cur.distance : 0;
  step.maxSpeed = cur.speed;
  const before = prev ? alarmsOf(prev.alarm) : new Set<string>();
  for (const a of alarmsOf(cur.alarm)) {
    const key = HARSH_ALARMS[a as keyof typeof HARSH_ALARMS];
    if (key && !before.has(a)) step[key] += 1;
  }
  if (!prev) return step;
  const dt = cur.fixTime - prev.fixTime;
  if (!(dt > 0) || dt > MAX_ACTIVITY_INTERVAL_MS) return step;
  const driving = prev.motion || cur.motion;
  if (driving) step.drivingMs = dt;
  else if (prev.ignition === true && cur.ignition === true) step.idleMs = dt;
  if (speedLimit > 0 && cur.speed > speedLimit) {
    step.overspeedMs = dt;
    step.overspeedExcess = (cur.speed - speedLimit) * dt;
  }
  if (dt <= MAX_HARSH_INTERVAL_MS) {
    const seconds = dt / 1000;
    const accel = knotsToMps(cur.speed - prev.speed) / seconds;
    if (accel >= HARSH_ACCELERATION_MPS2) step.harshAcceleration = 1;
    else if (-accel >= HARSH_BRAKING_MPS2) step.harshBraking = 1;
    const meanSpeed = knotsToMps((cur.speed + prev.speed) / 2);
    let turn = Math.abs(cur.course - prev.course) % 360;
    if (turn > 180) turn = 360 - turn;
    const lateral = meanSpeed * ((turn * Math.PI) / 180 / seconds);
    if (meanSpeed >= HARSH_CORNERING_MIN_MPS && lateral >= HARSH_CORNERING_MPS2) step.harshCornering = 1;
  }
  return step;
}

/** The hour (whole hours since the epoch, UTC) a position's activity is filed under. */
export const activityHour = (fixTimeMs: number): number => Math.floor(fixTimeMs / HOUR_MS);

/** Whether a local hour of the day (0–23) is night driving time. */
export const isNightHour = (hour: number): boolean => hour >= NIGHT_START_HOUR || hour < NIGHT_END_HOUR;

// ---- the dashboard's answer (GET /{ns}/dashboard) ------------------------------------------------------------

export const DASHBOARD_RANGES = ['today', 'last7', 'last30', 'custom'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];
/** The longest period the dashboard and the scores sum (days). */
export const INSIGHTS_MAX_DAYS = 366;

export interface DashboardTotals {
  /** metres */
  distance: number;
  drivingMs: number;
  idleMs: number;
  /** trips ended (deviceStopped events) */
  stops: number;
  overspeedEvents: number;
  /** litres (distance × the litres per 100 km setting), null when the setting is not given */
  fuel: number | null;
}

export interface DashboardDevice {
  deviceId: number;
  name: string;
  distance: number;
  drivingMs: number;
  idleMs: number;
  /** driving time ÷ the period, 0–1 */
  utilisation: number;
}

export interface DashboardAnswer {
  from: string;
  to: string;
  /** The period just before, as long as this one. */
  previousFrom: string;
  previousTo: string;
  timeZone: string;
  deviceCount: number;
  totals: DashboardTotals;
  previous: DashboardTotals;
  status: { online: number; offline: number; never: number };
  /** Distance per local day of the period (YYYY-MM-DD in timeZone), every day present. */
  days: Array<{ day: string; distance: number }>;
  devices: DashboardDevice[];
  /** Device ids, most idle first (at most 10, only devices that idled). */
  topIdle: number[];
}

/** Relative change of a figure against the previous period, or null when there is nothing to compare with. */
export function changeRatio(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null) return null;
  if (previous === 0) return current === 0 ? 0 : null;
  return (current - previous) / previous;
}

/** Estimated litres for a distance (metres) at `litersPer100km`; null without a positive setting. */
export function fuelEstimate(distanceMetres: number, litersPer100km: unknown): number | null {
  const l = typeof litersPer100km === 'string' ? Number(litersPer100km) : litersPer100km;
  if (typeof l !== 'number' || !Number.isFinite(l) || l <= 0) return null;
  return Math.round((distanceMetres / 100_000) * l * 100) / 100;
}
