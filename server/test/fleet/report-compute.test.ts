import { describe, expect, it } from 'vitest';
import { DEFAULT_TRIP_PARAMS } from '../../src/live/motion.ts';
import {
  geofenceIntervals,
  segmentsFromEvents,
  segmentsFromPositions,
  splitDays,
  stopItem,
  summaryItem,
  tripItem,
} from '../../src/live/reports/compute.ts';
import { syntheticDay, T0 } from './track.ts';

const KN = 3600 / 1852; // knots per m/s

const device = { id: 7, name: 'Caminhão 7', attributes: {} };
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString().replace('Z', '+00:00');

describe('trips, stops and summary from a hand-worked track', () => {
  const positions = syntheticDay();
  const segments = segmentsFromPositions(positions, DEFAULT_TRIP_PARAMS);

  it('splits into stop, trip, stop, trip, stop (slow mode)', () => {
    expect(segments.map((s) => [s.kind, s.start.id, s.end.id])).toEqual([
      ['stop', 1, 11], // 0 → 600 s
      ['trip', 11, 24], // 600 → 1380 s
      ['stop', 24, 41], // 1380 → 2400 s
      ['trip', 41, 54], // 2400 → 3180 s
      ['stop', 54, 61], // 3180 → 3600 s (closed at the period's last position)
    ]);
  });

  it('trip: 6000 m in 780 s, max 10 m/s, 0.6 l, driver name', () => {
    const trip = tripItem(device, segments[1], { drivers: new Map([['D-1', 'Ana']]) });
    expect(trip).toMatchObject({
      deviceId: 7,
      deviceName: 'Caminhão 7',
      startTime: at(600),
      endTime: at(1380),
      duration: 780_000,
      startPositionId: 11,
      endPositionId: 24,
      startOdometer: 0,
      endOdometer: 6000,
      driverUniqueId: 'D-1',
      driverName: 'Ana',
    });
    expect(trip.distance).toBeCloseTo(6000, 6);
    expect(trip.averageSpeed).toBeCloseTo((6000 / 780) * KN, 9);
    expect(trip.maxSpeed).toBeCloseTo(10 * KN, 9);
    expect(trip.spentFuel).toBeCloseTo(0.6, 9);
    expect(trip.startLat).toBe(positions[10].latitude);
    expect(trip.endLon).toBe(positions[23].longitude);
  });

  it('stop: at the 6000 m mark, 1020 s, engine idled 120 s of it (1380 → 1500 s)', () => {
    const stop = stopItem(device, segments[2]);
    expect(stop).toMatchObject({
      positionId: 24,
      latitude: positions[23].latitude,
      longitude: positions[23].longitude,
      startTime: at(1380),
      endTime: at(2400),
      duration: 1_020_000,
      engineHours: 120_000,
      distance: 0,
      averageSpeed: 0,
      maxSpeed: 0,
      spentFuel: 0,
      startOdometer: 6000,
      endOdometer: 6000,
    });
  });

  it('summary: 12 000 m, engine 1500 s, average = distance / engine hours', () => {
    const s = summaryItem(device, positions[0], positions[positions.length - 1], 10 * KN);
    expect(s.distance).toBeCloseTo(12_000, 6);
    expect(s.startHours).toBe(0);
    expect(s.endHours).toBe(1_500_000);
    expect(s.engineHours).toBe(1_500_000);
    expect(s.averageSpeed).toBeCloseTo((12_000 / 1500) * KN, 9);
    expect(s.spentFuel).toBeCloseTo(1.2, 9);
    expect(s.startTime).toBe(at(0));
    expect(s.endTime).toBe(at(3600));
  });

  it('summary without engine hours has averageSpeed 0', () => {
    const bare = positions.map((p) => ({ ...p, attributes: { totalDistance: p.attributes.totalDistance } }));
    expect(summaryItem(device, bare[0], bare[bare.length - 1], 0).averageSpeed).toBe(0);
  });

  it('odometer wins over totalDistance when both ends have one; fuelUsed and fuelLevel × capacity', () => {
    const a = { ...positions[0], attributes: { odometer: 100_000, totalDistance: 5, fuelUsed: 10 } };
    const b = { ...positions[10], attributes: { odometer: 101_500, totalDistance: 9, fuelUsed: 10.4 } };
    const t = tripItem(device, { kind: 'trip', start: a, end: b, maxSpeed: 0 });
    expect(t.distance).toBe(1500);
    expect(t.startOdometer).toBe(100_000);
    expect(t.spentFuel).toBeCloseTo(0.4, 9);
    const c = { ...a, attributes: { fuelLevel: 80 } };
    const d = { ...b, attributes: { fuelLevel: 75 } };
    const tank = { ...device, attributes: { fuelCapacity: 60 } };
    expect(tripItem(tank, { kind: 'trip', start: c, end: d, maxSpeed: 0 }).spentFuel).toBeCloseTo(3, 9);
    // ignoreOdometer: back to totalDistance
    expect(
      tripItem(device, { kind: 'trip', start: a, end: b, maxSpeed: 0 }, { ignoreOdometer: true }).distance,
    ).toBe(4);
  });

  it('fast mode: the same trips from stored motion events, maxSpeed 0', () => {
    const byId = (id: number) => positions[id - 1];
    const events = [
      { type: 'deviceMoving', position: byId(11) },
      { type: 'deviceStopped', position: byId(24) },
      { type: 'deviceMoving', position: byId(41) },
      { type: 'deviceStopped', position: byId(54) },
    ];
    const fast = segmentsFromEvents(positions[0], positions[positions.length - 1], events);
    expect(fast.map((s) => [s.kind, s.start.id, s.end.id, s.maxSpeed])).toEqual([
      ['stop', 1, 11, 0],
      ['trip', 11, 24, 0],
      ['stop', 24, 41, 0],
      ['trip', 41, 54, 0],
      ['stop', 54, 61, 0],
    ]);
  });

  it('a period that starts moving (motion=true) starts inside a trip', () => {
    const moving = positions.slice(15);
    const segs = segmentsFromPositions(moving, DEFAULT_TRIP_PARAMS);
    expect(segs[0]).toMatchObject({ kind: 'trip' });
    expect(segs[0].start.id).toBe(16);
    expect(segs[0].end.id).toBe(24);
  });
});

describe('daily pieces in the user time zone', () => {
  it('São Paulo (UTC−3): days cut at 03:00 UTC, the remainder last', () => {
    const from = Date.parse('2026-03-01T12:00:00Z');
    const to = Date.parse('2026-03-03T12:00:00Z');
    expect(
      splitDays(from, to, 'America/Sao_Paulo').map(([a, b]) => [
        new Date(a).toISOString(),
        new Date(b).toISOString(),
      ]),
    ).toEqual([
      ['2026-03-01T12:00:00.000Z', '2026-03-02T03:00:00.000Z'],
      ['2026-03-02T03:00:00.000Z', '2026-03-03T03:00:00.000Z'],
      ['2026-03-03T03:00:00.000Z', '2026-03-03T12:00:00.000Z'],
    ]);
  });
  it('UTC and a DST change (Europe/Berlin, 2026-03-29 is 23 h long)', () => {
    expect(
      splitDays(Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-03-03T00:00:00Z'), 'UTC'),
    ).toHaveLength(2);
    const days = splitDays(
      Date.parse('2026-03-28T23:00:00Z'),
      Date.parse('2026-03-30T22:00:00Z'),
      'Europe/Berlin',
    );
    expect(days.map(([a, b]) => (b - a) / 3_600_000)).toEqual([23, 24]);
  });
});

describe('geofence intervals', () => {
  it('pairs enter → exit per geofence; an exit without enter starts at from, an open enter ends at to', () => {
    const from = Date.parse('2026-03-02T00:00:00Z');
    const to = Date.parse('2026-03-02T12:00:00Z');
    const ev = (type: string, hh: string, geofenceId: number) => ({
      type,
      eventTime: `2026-03-02T${hh}:00:00Z`,
      geofenceId,
    });
    const items = geofenceIntervals(
      device,
      [
        ev('geofenceExit', '01', 5),
        ev('geofenceEnter', '02', 5),
        ev('geofenceEnter', '03', 6),
        ev('geofenceExit', '04', 5),
        ev('geofenceEnter', '05', 9),
      ],
      new Set([5, 6]),
      from,
      to,
    );
    expect(items.map((i) => [i.geofenceId, i.startTime, i.endTime])).toEqual([
      [5, '2026-03-02T00:00:00.000+00:00', '2026-03-02T01:00:00.000+00:00'],
      [5, '2026-03-02T02:00:00.000+00:00', '2026-03-02T04:00:00.000+00:00'],
      [6, '2026-03-02T03:00:00.000+00:00', '2026-03-02T12:00:00.000+00:00'],
    ]);
  });
});
