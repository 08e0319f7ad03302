// Traccar's "new" trip algorithm (CONTRACT §8, report.trip.newLogic = true) as a per-device state machine.
// It uses distances and times only (not speed, motion or ignition), so the live pipeline and the reports'
// slow mode (a replay of stored positions) find the same trips and stops.
import { haversine } from '@rastro/domain';

export interface TripParams {
  /** report.trip.minDistance, metres. */
  minDistance: number;
  /** report.trip.minDuration, seconds. */
  minDuration: number;
  /** report.trip.stopGap, seconds. */
  stopGap: number;
}

export const DEFAULT_TRIP_PARAMS: TripParams = { minDistance: 200, minDuration: 180, stopGap: 3600 };

/** What the tracker needs from a position; any richer object (a Position, a row) passes through untouched. */
export interface MotionPoint {
  latitude: number;
  longitude: number;
  fixTime: string | number | Date;
}

export type MotionEventType = 'deviceMoving' | 'deviceStopped';

export interface MotionEvent<P extends MotionPoint = MotionPoint> {
  type: MotionEventType;
  /** The position the event belongs to (its fixTime is the event time). */
  position: P;
}

export interface MotionTrackerOptions extends Partial<TripParams> {
  /** State before the first position (reports: the first position's `motion` attribute). Default stopped. */
  initialMoving?: boolean;
}

export interface MotionTracker<P extends MotionPoint = MotionPoint> {
  /** Feeds the next position (in fixTime order) and returns the motion events it causes, oldest first. */
  update(position: P): Array<MotionEvent<P>>;
  /** Whether the device is currently in a trip. */
  readonly moving: boolean;
  readonly params: TripParams;
}

const timeOf = (p: MotionPoint): number =>
  typeof p.fixTime === 'number'
    ? p.fixTime
    : p.fixTime instanceof Date
      ? p.fixTime.getTime()
      : Date.parse(p.fixTime);

const dist = (a: MotionPoint, b: MotionPoint): number =>
  haversine(a.latitude, a.longitude, b.latitude, b.longitude);

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/**
 * Trip parameters with overrides from attribute maps, most specific first (device, then group chain, then server),
 * keys `report.trip.minDistance`, `report.trip.minDuration`, `report.trip.stopGap`.
 */
export function tripParamsFrom(
  ...attributeMaps: Array<Record<string, unknown> | undefined | null>
): TripParams {
  const pick = (key: keyof TripParams): number => {
    for (const attrs of attributeMaps) {
      const v = attrs ? num(attrs[`report.trip.${key}`]) : undefined;
      if (v !== undefined) return v;
    }
    return DEFAULT_TRIP_PARAMS[key];
  };
  return { minDistance: pick('minDistance'), minDuration: pick('minDuration'), stopGap: pick('stopGap') };
}

export function createMotionTracker<P extends MotionPoint = MotionPoint>(
  options: MotionTrackerOptions = {},
): MotionTracker<P> {
  const params: TripParams = {
    minDistance: options.minDistance ?? DEFAULT_TRIP_PARAMS.minDistance,
    minDuration: options.minDuration ?? DEFAULT_TRIP_PARAMS.minDuration,
    stopGap: options.stopGap ?? DEFAULT_TRIP_PARAMS.stopGap,
  };
  const minDurationMs = params.minDuration * 1000;
  const stopGapMs = params.stopGap * 1000;
  // A leg "moves" when its average speed exceeds minDistance / minDuration (m/s).
  const movingSpeed = params.minDuration > 0 ? params.minDistance / params.minDuration : 0;

  let moving = options.initialMoving ?? false;
  // Recent positions covering the last minDuration: the oldest kept one is the newest at or before the boundary.
  let window: Array<{ p: P; t: number }> = [];
  let eventPoint: { p: P; t: number } | null = null;

  const legMoves = (a: { p: P; t: number }, b: { p: P; t: number }): boolean => {
    const seconds = (b.t - a.t) / 1000;
    if (seconds <= 0) return dist(a.p, b.p) > 0;
    return dist(a.p, b.p) / seconds > movingSpeed;
  };

  function update(position: P): Array<MotionEvent<P>> {
    const t = timeOf(position);
    const cur = { p: position, t };
    const events: Array<MotionEvent<P>> = [];
    const prev = window.length > 0 ? window[window.length - 1] : null;

    if (!prev || !eventPoint) {
      window = [cur];
      eventPoint = cur;
      return events;
    }
    if (t < prev.t) return events; // out of order: ignored by the state machine

    // 1. A long data gap that covered real distance at a moving pace: a whole trip happened unseen.
    const gap = t - prev.t;
    if (gap > stopGapMs) {
      const d = dist(prev.p, position);
      if (d >= params.minDistance && d / (gap / 1000) > movingSpeed) {
        if (moving) events.push({ type: 'deviceStopped', position: prev.p });
        events.push({ type: 'deviceMoving', position: prev.p });
        events.push({ type: 'deviceStopped', position });
        moving = false;
        eventPoint = cur;
        window = [cur];
        return events;
      }
    }

    window.push(cur);
    const boundary = t - minDurationMs;
    while (window.length > 1 && window[1].t <= boundary) window.shift();

    if (moving) {
      // 2. Still moving while any recent position is far from here; stopped once that lasted minDuration.
      let far = false;
      for (let i = 0; i < window.length - 1; i++) {
        if (dist(window[i].p, position) >= params.minDistance) {
          far = true;
          break;
        }
      }
      if (!far && window.length > 1 && t - window[0].t >= minDurationMs) {
        events.push({ type: 'deviceStopped', position });
        moving = false;
        eventPoint = cur;
      }
    } else if (dist(eventPoint.p, position) >= params.minDistance) {
      // 3. Left the stop: the trip starts at the earliest position after the stop from which every leg moved.
      let start = window.length - 1;
      while (start > 0 && window[start - 1].t >= eventPoint.t && legMoves(window[start - 1], window[start]))
        start--;
      const startPoint = window[start];
      events.push({ type: 'deviceMoving', position: startPoint.p });
      moving = true;
      eventPoint = startPoint;
    }
    return events;
  }

  return {
    update,
    get moving() {
      return moving;
    },
    params,
  };
}
