// Detection rules of the monitoring center (issue #32) on hand-made tracks, with the negatives: a car driven
// normally and a car parked with a drifting GPS fix raise nothing.
import { describe, expect, it } from 'vitest';
import {
  alarmSettingsFrom,
  detectAlarms,
  emptyAlarmState,
  signalLostAlarm,
  anchorExitAlarm,
  alarmReport,
  percentile,
  type AlarmContext,
  type AlarmPoint,
  type AlarmSettings,
} from '../src/index.ts';

const S: AlarmSettings = alarmSettingsFrom({}, 'rastro');
const T0 = Date.parse('2026-11-28T02:00:00Z');
const LAT = -23.55;
const LON = -46.63;
/** Degrees of latitude per metre. */
const M = 1 / 111_195;

const pt = (i: number, metresNorth: number, extra: Partial<AlarmPoint> = {}): AlarmPoint => ({
  time: T0 + i * 30_000,
  latitude: LAT + metresNorth * M,
  longitude: LON,
  speed: 0,
  ...extra,
});

function run(track: AlarmPoint[], settings: AlarmSettings = S, c?: Partial<AlarmContext>) {
  let state = emptyAlarmState();
  const out: Array<{ i: number; type: string; detail: string }> = [];
  track.forEach((p, i) => {
    const r = detectAlarms(state, p, settings, {
      speedLimit: 0,
      inParkedWindow: false,
      qrDriverRequired: false,
      driverCheckedIn: false,
      ...c,
    });
    state = r.state;
    for (const a of r.alarms) out.push({ i, ...a });
  });
  return out;
}

describe('settings', () => {
  it('defaults, and reads {ns}.alarms.* with bad values falling back', () => {
    expect(S).toMatchObject({ enabled: true, towingDistance: 300, signalLostMinutes: 5, disabledTypes: [] });
    const s = alarmSettingsFrom(
      {
        'rastro.alarms.towingDistance': '500',
        'rastro.alarms.signalLostMinutes': -3,
        'rastro.alarms.disabledTypes': 'overspeed, noDriver',
        'other.alarms.towingDistance': 900,
      },
      'rastro',
    );
    expect(s.towingDistance).toBe(500);
    expect(s.signalLostMinutes).toBe(5);
    expect(s.disabledTypes).toEqual(['overspeed', 'noDriver']);
  });
});

describe('tracker alarms', () => {
  it('sos, powerCut, tampering and other values, once per value', () => {
    const track = [
      pt(0, 0),
      pt(1, 0, { alarm: 'sos' }),
      pt(2, 0, { alarm: 'sos' }),
      pt(3, 0, { alarm: 'powerCut,tampering' }),
      pt(4, 0, { alarm: 'jamming' }),
    ];
    expect(run(track)).toEqual([
      { i: 1, type: 'sos', detail: 'sos' },
      { i: 3, type: 'powerCut', detail: 'powerCut' },
      { i: 3, type: 'tampering', detail: 'tampering' },
      { i: 4, type: 'deviceAlarm', detail: 'jamming' },
    ]);
  });

  it('driving behaviour and state reports are no case for the desk', () => {
    const track = [pt(0, 0, { alarm: 'hardBraking' }), pt(1, 0, { alarm: 'powerRestored' }), pt(2, 0)];
    expect(run(track)).toEqual([]);
  });

  it('disabledTypes drops a type', () => {
    const s = alarmSettingsFrom({ 'rastro.alarms.disabledTypes': 'sos' }, 'rastro');
    expect(run([pt(0, 0, { alarm: 'sos' })], s)).toEqual([]);
  });
});

describe('towing', () => {
  it('carried 600 m with the ignition off, slowly: after three fixes beyond 300 m', () => {
    const track = [0, 0, 100, 250, 350, 450, 600, 700].map((m, i) => pt(i, m, { ignition: false, speed: 1 }));
    expect(run(track)).toEqual([{ i: 6, type: 'towing', detail: '' }]);
  });

  it('carried at speed: once per parking, again after the ignition was on', () => {
    const track = [0, 50, 400, 800, 1200, 1600].map((m, i) => pt(i, m, { ignition: false, speed: 15 }));
    const on = pt(6, 1600, { ignition: true });
    const again = [1600, 2000, 2400, 2800].map((m, i) => pt(7 + i, m, { ignition: false, speed: 15 }));
    expect(run([...track, on, ...again])).toEqual([
      { i: 4, type: 'towing', detail: '' },
      { i: 10, type: 'towing', detail: '' },
    ]);
  });

  it('negative: a parked car with a drifting fix (jumps of 500 m, two in a row, with a speed) raises nothing', () => {
    const drift = [0, 20, 500, 10, -30, 520, 480, 5, 40, 700, -15, 10];
    const track = drift.map((m, i) => pt(i, m, { ignition: false, speed: m > 300 ? 20 : 0 }));
    expect(run(track)).toEqual([]);
  });

  it('negative: an imprecise fix far away does not count', () => {
    const track = [0, 900, 900, 900, 900].map((m, i) =>
      pt(i, m, { ignition: false, accuracy: i ? 1500 : 5 }),
    );
    expect(run(track)).toEqual([]);
  });

  it('negative: a car driven normally (ignition on) is no towing', () => {
    const track = Array.from({ length: 20 }, (_, i) => pt(i, i * 400, { ignition: true, speed: 25 }));
    expect(run(track)).toEqual([]);
  });

  it('no ignition reported: no towing rule', () => {
    const track = [0, 500, 1000, 1500, 2000].map((m, i) => pt(i, m, { speed: 10 }));
    expect(run(track)).toEqual([]);
  });
});

describe('overspeed, parked window, driver', () => {
  it('overspeed once per excursion above the device limit', () => {
    const speeds = [30, 60, 65, 40, 70];
    const track = speeds.map((v, i) => pt(i, i * 500, { ignition: true, speed: v }));
    expect(run(track, S, { speedLimit: 50 }).map((a) => [a.i, a.type])).toEqual([
      [1, 'overspeed'],
      [4, 'overspeed'],
    ]);
  });

  it('the settings limit (km/h) wins over the device limit', () => {
    const s = alarmSettingsFrom({ 'rastro.alarms.overspeedLimit': 100 }, 'rastro');
    // 60 kn = 111 km/h
    expect(run([pt(0, 0, { speed: 50 }), pt(1, 500, { speed: 60 })], s, { speedLimit: 20 })).toEqual([
      { i: 1, type: 'overspeed', detail: '' },
    ]);
  });

  it('movement inside the parked window, once; nothing outside it', () => {
    const track = [pt(0, 0, { ignition: false }), pt(1, 0, { ignition: true }), pt(2, 300, { speed: 20 })];
    expect(run(track, S, { inParkedWindow: true })).toEqual([{ i: 1, type: 'parkedMovement', detail: '' }]);
    expect(run(track, S, { inParkedWindow: false })).toEqual([]);
  });

  it('ignition on without a checked-in driver where QR check-in is used', () => {
    const track = [pt(0, 0, { ignition: false }), pt(1, 0, { ignition: true }), pt(2, 0, { ignition: true })];
    expect(run(track, S, { qrDriverRequired: true })).toEqual([{ i: 1, type: 'noDriver', detail: '' }]);
    expect(run(track, S, { qrDriverRequired: true, driverCheckedIn: true })).toEqual([]);
    expect(run(track, S, { qrDriverRequired: false })).toEqual([]);
  });

  it('a late (older) position raises its tracker alarm only', () => {
    let state = emptyAlarmState();
    state = detectAlarms(state, pt(5, 0, { ignition: false }), S).state;
    const late = detectAlarms(state, pt(1, 2000, { ignition: false, alarm: 'sos', speed: 80 }), S, {
      ...{ speedLimit: 10, inParkedWindow: false, qrDriverRequired: false, driverCheckedIn: false },
    });
    expect(late.alarms).toEqual([{ type: 'sos', detail: 'sos' }]);
    expect(late.state).toBe(state);
  });
});

describe('signal lost and anchor', () => {
  const now = T0 + 10 * 60_000;
  it('moving at the last report and silent for 5 minutes', () => {
    expect(signalLostAlarm({ speed: 30, receivedAt: now - 6 * 60_000 }, now, S)).toEqual({
      type: 'signalLost',
      detail: '',
    });
  });
  it('negative: silent for less, or parked at the last report', () => {
    expect(signalLostAlarm({ speed: 30, receivedAt: now - 4 * 60_000 }, now, S)).toBeNull();
    expect(signalLostAlarm({ speed: 0.5, receivedAt: now - 60 * 60_000 }, now, S)).toBeNull();
  });
  it('the anchor alarm event becomes anchorExit', () => {
    expect(anchorExitAlarm({ alarm: 'tow', anchor: true })).toEqual({ type: 'anchorExit', detail: 'tow' });
    expect(anchorExitAlarm({ alarm: 'sos' })).toBeNull();
  });
});

describe('alarms report', () => {
  const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
  it('counts per type, median and p90 of the times, per operator', () => {
    const alarms = [
      { type: 'sos', time: at(0), ackTime: at(1), ackUserId: 7, resolveTime: at(10), resolveUserId: 7 },
      { type: 'sos', time: at(0), ackTime: at(3), ackUserId: 8, resolveTime: at(30), resolveUserId: 8 },
      { type: 'towing', time: at(0), ackTime: at(2), ackUserId: 7, resolveTime: null, resolveUserId: null },
      { type: 'towing', time: at(0), ackTime: null, ackUserId: null, resolveTime: null, resolveUserId: null },
    ] as const;
    const r = alarmReport(alarms, new Map([[7, 'Ana']]));
    expect(r.byType).toEqual([
      { type: 'sos', count: 2 },
      { type: 'towing', count: 2 },
    ]);
    expect(r).toMatchObject({
      count: 4,
      resolved: 2,
      ackMedian: 2,
      ackP90: 3,
      resolveMedian: 10,
      resolveP90: 30,
    });
    expect(r.byOperator.map((o) => [o.name, o.count, o.ackMedian])).toEqual([
      ['Ana', 2, 1],
      ['8', 1, 3],
    ]);
    expect(percentile([], 0.5)).toBeNull();
  });
});
