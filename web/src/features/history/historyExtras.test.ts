// The history's marks, chapters and event times from the period's reports (historyExtras).
import type { RoutePoint } from '@rastro/domain';
import { describe, expect, it } from 'vitest';
import { historyExtras } from './historyExtras.ts';

const point = (id: number, latitude: number, longitude: number): RoutePoint => ({
  id,
  deviceId: 1,
  latitude,
  longitude,
  course: 0,
  speed: 10,
  altitude: 0,
  time: id * 1000,
  address: null,
  attributes: {},
});

const points = [point(10, -23.5, -46.6), point(11, -23.6, -46.7), point(12, -23.7, -46.8)];
const event = (positionId: number, type: string, eventTime = '2026-11-30T01:00:00Z') => ({
  id: positionId * 100,
  positionId,
  type,
  eventTime,
  deviceId: 1,
  attributes: {},
});

describe('historyExtras', () => {
  it("marks each event at its position, in the events' order, then the start and the end", () => {
    const extras = historyExtras(
      {
        trips: [],
        stops: [{ latitude: -23.55, longitude: -46.65 }],
        events: [event(12, 'overspeed'), event(99, 'alarm'), event(11, 'ignitionOn', 'not a date')],
      },
      points,
      { stops: true, events: true },
    );
    expect(extras.marks).toEqual([
      { kind: 'stop', latitude: -23.55, longitude: -46.65 },
      { kind: 'event', latitude: -23.7, longitude: -46.8, label: 'overspeed' },
      { kind: 'event', latitude: -23.6, longitude: -46.7, label: 'ignitionOn' },
      { kind: 'start', latitude: -23.5, longitude: -46.6 },
      { kind: 'end', latitude: -23.7, longitude: -46.8 },
    ]);
    // an event whose position is not in the route has no mark but keeps its time
    expect(extras.eventTimes).toEqual([
      Date.parse('2026-11-30T01:00:00Z'),
      Date.parse('2026-11-30T01:00:00Z'),
    ]);
  });

  it('no events and no stops shown: only the start and the end', () => {
    const extras = historyExtras(
      { trips: [], stops: [{ latitude: 1, longitude: 2 }], events: null },
      points,
      {
        stops: false,
        events: false,
      },
    );
    expect(extras.marks.map((m) => m.kind)).toEqual(['start', 'end']);
    expect(extras.eventTimes).toEqual([]);
    expect(extras.chapters).toEqual([]);
  });
});
