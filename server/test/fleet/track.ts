// Synthetic tracks for the fleet tests: a straight line due east along the equator, one sample a minute.
import { destination } from '@rastro/domain';

export const T0 = Date.parse('2026-03-02T10:00:00.000Z');

export interface TrackPoint {
  fixTime: string;
  latitude: number;
  longitude: number;
  /** knots */
  speed: number;
  attributes: Record<string, unknown>;
}

/**
 * Segments of [durationSeconds, speedMetresPerSecond]; a sample every `step` seconds starting at T0, the first at
 * the origin. Position n is at the distance covered so far, with the speed of the segment it ends.
 */
export function straightTrack(
  segments: Array<[number, number]>,
  step = 60,
  origin = { latitude: 0, longitude: 0 },
) {
  const points: Array<TrackPoint & { metres: number; seconds: number }> = [];
  let metres = 0;
  let seconds = 0;
  const push = (speed: number) =>
    points.push({
      fixTime: new Date(T0 + seconds * 1000).toISOString(),
      ...destination(origin, 90, metres),
      speed: (speed * 3600) / 1852,
      attributes: {},
      metres,
      seconds,
    });
  push(0);
  for (const [duration, speed] of segments) {
    for (let s = step; s <= duration; s += step) {
      seconds += step;
      metres += speed * step;
      push(speed);
    }
  }
  return points;
}
