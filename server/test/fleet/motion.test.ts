import { describe, expect, it } from 'vitest';
import { destination } from '@rastro/domain';
import { createMotionTracker, tripParamsFrom, DEFAULT_TRIP_PARAMS } from '../../src/live/motion.ts';
import { straightTrack, T0 } from './track.ts';

const run = (track: ReturnType<typeof straightTrack>, opts = {}) => {
  const tracker = createMotionTracker<(typeof track)[number]>(opts);
  return track
    .flatMap((p) => tracker.update(p))
    .map((e) => ({ type: e.type, seconds: e.position.seconds, metres: e.position.metres }));
};

describe('motion tracker (CONTRACT §8 new logic)', () => {
  it('defaults are 200 m, 180 s, 3600 s and attributes override them', () => {
    expect(DEFAULT_TRIP_PARAMS).toEqual({ minDistance: 200, minDuration: 180, stopGap: 3600 });
    expect(
      tripParamsFrom(
        { 'report.trip.minDistance': '500' },
        { 'report.trip.minDistance': 100, 'report.trip.stopGap': 60 },
      ),
    ).toEqual({
      minDistance: 500,
      minDuration: 180,
      stopGap: 60,
    });
  });

  it('10 m/s line with a 20-minute stop: trips start where the walk-back finds the first moving leg, stop after 180 s still', () => {
    // idle 10 min, 10 min at 10 m/s (6000 m), 20 min stop, 10 min at 10 m/s, idle 10 min
    const track = straightTrack([
      [600, 0],
      [600, 10],
      [1200, 0],
      [600, 10],
      [600, 0],
    ]);
    // t=660 s is 600 m from the stop (≥ 200 m): moving; the leg 600→660 s moved (10 m/s > 200/180), 540→600 did not,
    // so the trip starts at 600 s. Arrival at 1200 s; the window (last 180 s) holds only the stop from 1380 s on.
    expect(run(track)).toEqual([
      { type: 'deviceMoving', seconds: 600, metres: 0 },
      { type: 'deviceStopped', seconds: 1380, metres: 6000 },
      { type: 'deviceMoving', seconds: 2400, metres: 6000 },
      { type: 'deviceStopped', seconds: 3180, metres: 12000 },
    ]);
  });

  it('a wander shorter than minDistance is not a trip', () => {
    // 150 m away and back at 0.5 m/s
    const track = straightTrack([
      [300, 0.5],
      [300, -0.5],
      [600, 0],
    ]);
    expect(run(track)).toEqual([]);
  });

  it('a short halt (under minDuration) does not split a trip', () => {
    const track = straightTrack([
      [300, 0],
      [600, 10],
      [120, 0],
      [600, 10],
      [600, 0],
    ]);
    expect(run(track).map((e) => e.type)).toEqual(['deviceMoving', 'deviceStopped']);
  });

  it('initialMoving: a period that starts inside a trip ends it without a moving event', () => {
    const track = straightTrack([
      [300, 10],
      [600, 0],
    ]);
    expect(run(track, { initialMoving: true })).toEqual([
      { type: 'deviceStopped', seconds: 480, metres: 3000 },
    ]);
  });

  it('a data gap over stopGap that covered distance at a moving pace is a whole trip', () => {
    const tracker = createMotionTracker<{
      latitude: number;
      longitude: number;
      fixTime: number;
      n: number;
    }>();
    const a = { latitude: 0, longitude: 0, fixTime: T0, n: 1 };
    const b = { ...destination(a, 0, 50_000), fixTime: T0 + 2 * 3600_000, n: 2 }; // 50 km in 2 h
    expect(tracker.update(a)).toEqual([]);
    expect(tracker.update(b).map((e) => [e.type, e.position.n])).toEqual([
      ['deviceMoving', 1],
      ['deviceStopped', 2],
    ]);
    expect(tracker.moving).toBe(false);
  });

  it('uses distances only: a device parked with speed and motion set never moves', () => {
    const tracker = createMotionTracker();
    for (let i = 0; i < 20; i++) {
      expect(tracker.update({ latitude: 1, longitude: 1, fixTime: T0 + i * 60_000 })).toEqual([]);
    }
  });
});
