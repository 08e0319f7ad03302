// Fleet insights (issue #14): what an interval between two positions adds to an hour of activity, and the score
// formula, each with hand-worked numbers (docs/insights.md).
import { describe, expect, it } from 'vitest';
import {
  activityHour,
  activityStep,
  apiPermission,
  changeRatio,
  DEFAULT_SCORE_WEIGHTS,
  fuelEstimate,
  isNightHour,
  rankScores,
  scoreOf,
  scoreWeightsFrom,
  serverToSettings,
  settingsToServer,
  type ActivityPoint,
  type Server,
  type ScoreRow,
  type ScoreTotals,
} from '../src/index.ts';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const point = (over: Partial<ActivityPoint>): ActivityPoint => ({
  fixTime: T0,
  speed: 0,
  course: 0,
  motion: false,
  ignition: undefined,
  distance: 0,
  alarm: '',
  ...over,
});

describe('activityStep', () => {
  it('a minute moving at 30 kn under a 25 kn limit: driving, overspeed and its excess (knot·ms)', () => {
    const s = activityStep(
      point({ speed: 20, motion: true }),
      point({ fixTime: T0 + 60_000, speed: 30, motion: true, distance: 800 }),
      25,
    );
    expect(s.distance).toBe(800);
    expect(s.drivingMs).toBe(60_000);
    expect(s.idleMs).toBe(0);
    expect(s.overspeedMs).toBe(60_000);
    expect(s.overspeedExcess).toBe(5 * 60_000);
    expect(s.maxSpeed).toBe(30);
  });

  it('parked with the ignition on is idling; with it off, nothing', () => {
    const on = activityStep(point({ ignition: true }), point({ fixTime: T0 + 120_000, ignition: true }), 0);
    expect(on.idleMs).toBe(120_000);
    expect(on.drivingMs).toBe(0);
    const off = activityStep(point({ ignition: true }), point({ fixTime: T0 + 120_000, ignition: false }), 0);
    expect(off.idleMs).toBe(0);
  });

  it('a gap over 10 minutes counts its distance but no time', () => {
    const s = activityStep(
      point({ motion: true, speed: 20 }),
      point({ fixTime: T0 + 11 * 60_000, motion: true, speed: 20, distance: 5000 }),
      10,
    );
    expect(s.distance).toBe(5000);
    expect(s.drivingMs).toBe(0);
    expect(s.overspeedMs).toBe(0);
  });

  it('harsh braking: 30 → 10 kn in 2 s is 5.14 m/s² (threshold 3.5)', () => {
    const s = activityStep(
      point({ speed: 30, motion: true }),
      point({ fixTime: T0 + 2000, speed: 10, motion: true }),
      0,
    );
    expect(s.harshBraking).toBe(1);
    expect(s.harshAcceleration).toBe(0);
  });

  it('harsh acceleration: 10 → 25 kn in 2 s is 3.86 m/s² (threshold 3); 10 → 15 kn (1.29) is not', () => {
    const fast = activityStep(
      point({ speed: 10 }),
      point({ fixTime: T0 + 2000, speed: 25, motion: true }),
      0,
    );
    expect(fast.harshAcceleration).toBe(1);
    const calm = activityStep(
      point({ speed: 10 }),
      point({ fixTime: T0 + 2000, speed: 15, motion: true }),
      0,
    );
    expect(calm.harshAcceleration).toBe(0);
  });

  it('harsh cornering: 30 kn turning 30° in 2 s is 4.04 m/s²; 20° across north in 2 s is 2.69', () => {
    const sharp = activityStep(
      point({ speed: 30, course: 0, motion: true }),
      point({ fixTime: T0 + 2000, speed: 30, course: 30, motion: true }),
      0,
    );
    expect(sharp.harshCornering).toBe(1);
    const wide = activityStep(
      point({ speed: 30, course: 350, motion: true }),
      point({ fixTime: T0 + 2000, speed: 30, course: 10, motion: true }),
      0,
    );
    expect(wide.harshCornering).toBe(0);
  });

  it('positions 10 s or more apart derive no harsh manoeuvre', () => {
    const s = activityStep(point({ speed: 60 }), point({ fixTime: T0 + 11_000, speed: 0 }), 0);
    expect(s.harshBraking).toBe(0);
  });

  it("a device's own harsh alarm counts once, not again while it persists", () => {
    const first = activityStep(point({}), point({ fixTime: T0 + 1000, alarm: 'hardBraking,sos' }), 0);
    expect(first.alarmBraking).toBe(1);
    const again = activityStep(
      point({ alarm: 'hardBraking' }),
      point({ fixTime: T0 + 2000, alarm: 'hardBraking' }),
      0,
    );
    expect(again.alarmBraking).toBe(0);
    const noPrev = activityStep(null, point({ alarm: 'hardCornering', distance: 12 }), 0);
    expect(noPrev.alarmCornering).toBe(1);
    expect(noPrev.distance).toBe(12);
  });

  it('hours and night', () => {
    expect(activityHour(Date.parse('1970-01-01T02:59:59Z'))).toBe(2);
    expect([21, 22, 23, 0, 5, 6].map(isNightHour)).toEqual([false, true, true, true, true, false]);
  });
});

const totals = (over: Partial<ScoreTotals>): ScoreTotals => ({
  distance: 0,
  drivingMs: 0,
  idleMs: 0,
  nightMs: 0,
  overspeedMs: 0,
  overspeedExcess: 0,
  harshAcceleration: 0,
  harshBraking: 0,
  harshCornering: 0,
  alarmAcceleration: 0,
  alarmBraking: 0,
  alarmCornering: 0,
  ...over,
});
const H = 3_600_000;

describe('scoreOf', () => {
  // 200 km in 10 h of driving; 30 min over the limit by 10 km/h on average; 2 harsh accelerations, 4 harsh brakings;
  // 2.5 h idling; 1 h at night.
  const worked = totals({
    distance: 200_000,
    drivingMs: 10 * H,
    overspeedMs: 0.5 * H,
    overspeedExcess: (10 / 1.852) * 0.5 * H,
    harshAcceleration: 2,
    harshBraking: 4,
    idleMs: 2.5 * H,
    nightMs: 1 * H,
  });

  it('100 − (5 + 5 + 2 + 6 + 0 + 6 + 2) = 74 with the default weights', () => {
    const b = scoreOf(worked);
    expect(b.overspeed).toEqual({ value: 5, penalty: 5 });
    expect(b.excess).toEqual({ value: 10, penalty: 5 });
    expect(b.acceleration).toEqual({ value: 1, penalty: 2 });
    expect(b.braking).toEqual({ value: 2, penalty: 6 });
    expect(b.cornering).toEqual({ value: 0, penalty: 0 });
    expect(b.idle).toEqual({ value: 20, penalty: 6 });
    expect(b.night).toEqual({ value: 10, penalty: 2 });
    expect(b.score).toBe(74);
    expect(b.fromAlarms).toBe(false);
  });

  it("the device's alarms replace the derived harsh counts when it reports any", () => {
    const b = scoreOf({ ...worked, alarmBraking: 1 });
    expect(b.fromAlarms).toBe(true);
    expect(b.braking.value).toBe(0.5);
    expect(b.acceleration.value).toBe(0);
    // 100 − (5 + 5 + 0 + 1.5 + 0 + 6 + 2) = 80.5, rounded to 81
    expect(b.score).toBe(81);
  });

  it('each component is capped at 40 points and the score at 0', () => {
    const b = scoreOf(totals({ distance: 10_000, drivingMs: H, overspeedMs: 0.6 * H, harshBraking: 20 }));
    expect(b.overspeed.penalty).toBe(40);
    expect(b.braking.penalty).toBe(40);
    expect(b.score).toBe(20);
    const worst = scoreOf(
      totals({
        distance: 10_000,
        drivingMs: H,
        overspeedMs: H,
        overspeedExcess: 100 * H,
        harshBraking: 20,
        harshCornering: 20,
      }),
    );
    expect(worst.score).toBe(0);
  });

  it('no driving ⇒ no score; under 1 km the harsh rates are not judged', () => {
    expect(scoreOf(totals({ idleMs: H })).score).toBeNull();
    const short = scoreOf(totals({ distance: 500, drivingMs: 60_000, harshBraking: 1 }));
    expect(short.braking.value).toBe(0);
    expect(short.score).toBe(100);
  });

  it('weights come from the server settings; invalid values keep their default', () => {
    const w = scoreWeightsFrom({
      'rastro.score.braking': '1',
      'rastro.score.night': -1,
      'rastro.score.idle': 'x',
      'rastro.score.overspeed': 0,
    });
    expect(w).toEqual({ ...DEFAULT_SCORE_WEIGHTS, braking: 1, overspeed: 0 });
    // 100 − (0 + 5 + 2 + 2 + 0 + 6 + 2) = 83
    expect(scoreOf(worked, w).score).toBe(83);
  });

  it('the server settings dialog saves the weights where the scores read them', () => {
    const server = { id: 1, attributes: {} } as unknown as Server;
    const values = { ...serverToSettings(server), scoreBraking: '1,5', scoreNight: '' };
    const saved = settingsToServer(server, values);
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.server.attributes['rastro.score.braking']).toBe(1.5);
    expect(scoreWeightsFrom(saved.server.attributes).braking).toBe(1.5);
    expect(serverToSettings(saved.server).scoreBraking).toBe('1.5');
    const wrong = settingsToServer(server, { ...values, scoreIdle: '101' });
    expect(wrong).toEqual({ ok: false, errors: { scoreIdle: 'validation.scoreWeight' } });
  });

  it('ranking: best score first, then the longer distance; unscored last', () => {
    const row = (key: string, score: number | null, distance: number): ScoreRow => ({
      key,
      name: key,
      distance,
      drivingMs: 1,
      breakdown: { ...scoreOf(worked), score },
    });
    const ranked = rankScores([row('a', 80, 10), row('b', null, 99), row('c', 90, 1), row('d', 80, 20)]);
    expect(ranked.map((r) => r.key)).toEqual(['c', 'd', 'a', 'b']);
  });
});

describe('dashboard helpers', () => {
  it('fuel estimate: 150 km at 12 L/100 km is 18 L; no setting, no estimate', () => {
    expect(fuelEstimate(150_000, 12)).toBe(18);
    expect(fuelEstimate(150_000, '12')).toBe(18);
    expect(fuelEstimate(150_000, 0)).toBeNull();
    expect(fuelEstimate(150_000, undefined)).toBeNull();
  });

  it('change against the previous period', () => {
    expect(changeRatio(150, 100)).toBe(0.5);
    expect(changeRatio(50, 100)).toBe(-0.5);
    expect(changeRatio(0, 0)).toBe(0);
    expect(changeRatio(5, 0)).toBeNull();
    expect(changeRatio(null, 3)).toBeNull();
  });

  it('the dashboard and the scores need the reports view bit', () => {
    expect(apiPermission('GET', '/rastro/dashboard', 'rastro')).toEqual({ area: 'reports', action: 'view' });
    expect(apiPermission('GET', '/rastro/scores', 'rastro')).toEqual({ area: 'reports', action: 'view' });
    expect(apiPermission('GET', '/rastro/scores/xlsx', 'rastro')).toEqual({
      area: 'reports',
      action: 'view',
    });
  });
});
