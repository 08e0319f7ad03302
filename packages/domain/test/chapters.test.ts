import { describe, expect, it } from 'vitest';
import {
  chapterRange,
  historyChapters,
  nearestPointIndex,
  type ReportStop,
  type ReportTrip,
} from '../src/index.ts';

const base = {
  deviceId: 1,
  deviceName: 'T',
  averageSpeed: 0,
  spentFuel: 0,
  startOdometer: 0,
  endOdometer: 0,
};
const trip = (start: string, end: string, distance: number, maxSpeed: number): ReportTrip => ({
  ...base,
  distance,
  maxSpeed,
  startTime: start,
  endTime: end,
  startPositionId: 1,
  endPositionId: 2,
  startLat: 0,
  startLon: 0,
  endLat: 0,
  endLon: 0,
  startAddress: 'Rua A, 1',
  endAddress: 'Rua B, 2',
  duration: Date.parse(end) - Date.parse(start),
  driverUniqueId: null,
  driverName: null,
});
const stop = (start: string, end: string): ReportStop => ({
  ...base,
  distance: 0,
  maxSpeed: 0,
  startTime: start,
  endTime: end,
  positionId: 3,
  latitude: 0,
  longitude: 0,
  address: 'Posto C',
  duration: Date.parse(end) - Date.parse(start),
  engineHours: 0,
});

describe('history chapters (issue #14)', () => {
  it('merges trips and stops in time order with their figures; unreadable rows are left out', () => {
    const chapters = historyChapters(
      [
        trip('2026-11-25T08:00:00Z', '2026-11-25T08:40:00Z', 23_500, 48.6),
        trip('2026-11-25T09:10:00Z', '2026-11-25T09:30:00Z', 8_000, 30),
      ],
      [stop('2026-11-25T08:40:00Z', '2026-11-25T09:10:00Z'), stop('bad', '2026-11-25T10:00:00Z')],
    );
    expect(chapters.map((c) => [c.index, c.kind])).toEqual([
      [0, 'trip'],
      [1, 'stop'],
      [2, 'trip'],
    ]);
    expect(chapters[0]).toMatchObject({
      durationMs: 40 * 60_000,
      distance: 23_500,
      maxSpeed: 48.6,
      startAddress: 'Rua A, 1',
      endAddress: 'Rua B, 2',
    });
    expect(chapters[1]).toMatchObject({
      durationMs: 30 * 60_000,
      distance: 0,
      startAddress: 'Posto C',
      endAddress: null,
    });
  });

  it('a chapter covers the route points inside its span, both ends included', () => {
    const points = [0, 10, 20, 30, 40, 50].map((m) => ({
      time: Date.parse('2026-11-25T08:00:00Z') + m * 60_000,
    }));
    const [first] = historyChapters([trip('2026-11-25T08:10:00Z', '2026-11-25T08:30:00Z', 1, 1)], []);
    expect(chapterRange(points, first)).toEqual([1, 3]);
    expect(chapterRange(points, { start: points[5].time + 1, end: points[5].time + 2 })).toBeNull();
  });

  it('an event sits at the nearest point in time', () => {
    const points = [0, 100, 200, 400].map((time) => ({ time }));
    expect(nearestPointIndex(points, -50)).toBe(0);
    expect(nearestPointIndex(points, 140)).toBe(1);
    expect(nearestPointIndex(points, 160)).toBe(2);
    expect(nearestPointIndex(points, 350)).toBe(3);
    expect(nearestPointIndex([], 5)).toBe(-1);
  });
});
