// Synthetic tracks for the fleet tests: a straight line due east along the equator, one sample a minute.
import { destination } from '@rastro/domain';
import type { ReportPosition } from '../../src/live/reports/compute.ts';

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

// 10 min parked, 10 min at 10 m/s (6000 m), a 20-minute stop (engine idling its first 5 minutes), 10 min at 10 m/s,
// 10 min parked. Fuel: 50 l, burning 1 l per 10 km. Engine hours count the moving minutes and the idle.
export function syntheticDay(): ReportPosition[] {
  const track = straightTrack([
    [600, 0],
    [600, 10],
    [1200, 0],
    [600, 10],
    [600, 0],
  ]);
  let hours = 0;
  return track.map((p, i) => {
    const engineOn = p.speed > 0 || (p.seconds > 1200 && p.seconds <= 1500);
    if (i > 0 && engineOn) hours += 60_000;
    return {
      id: i + 1,
      deviceId: 7,
      fixTime: p.fixTime,
      latitude: p.latitude,
      longitude: p.longitude,
      speed: p.speed,
      address: null,
      attributes: {
        motion: p.speed > 0,
        totalDistance: p.metres,
        hours,
        fuel: 50 - p.metres / 10_000,
        driverUniqueId: 'D-1',
      },
    };
  });
}
