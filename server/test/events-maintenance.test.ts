// maintenance events through the real live core: a maintenance linked to the device or its group fires when the
// value of its type crosses start + k·period between consecutive positions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '@rastro/domain';
import {
  createDevice,
  createObject,
  ingestPosition,
  link,
  makeTestApp,
  reportedEvents,
  type TestApp,
} from './helpers/index.ts';
import { getLive } from '../src/live/ingest.ts';
import { crossesBoundary } from '../src/live/events/index.ts';

let t: TestApp;
const heard: Event[] = [];
beforeAll(async () => {
  t = await makeTestApp();
  getLive(t.ctx).subscribe({ events: (evs) => heard.push(...evs) });
});
afterAll(async () => {
  await t.close();
});

const T0 = Date.parse('2024-05-01T12:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

const send = (uniqueId: string, s: number, attributes: Record<string, unknown> = {}) =>
  ingestPosition(t, { uniqueId, fixTime: at(s), attributes });

interface StoredEvent {
  type: string;
  positionId: number;
  maintenanceId: number;
  attributes: Record<string, unknown>;
}

const reported = (deviceId: number) =>
  reportedEvents<StoredEvent>(t, deviceId, at(-60), at(86_400), 'maintenance');

/** Sends positions whose device-sent `distance` makes totalDistance follow `totals` (metres). */
async function drive(uniqueId: string, totals: number[], from = 0) {
  const ids: number[] = [];
  let before = 0;
  for (let i = 0; i < totals.length; i++) {
    const p = await send(uniqueId, from + i * 60, { distance: totals[i] - before });
    expect(p.attributes.totalDistance).toBe(totals[i]);
    before = totals[i];
    ids.push(p.id);
  }
  return ids;
}

describe('maintenance by totalDistance (start 0, period 10,000,000 m = every 10,000 km)', () => {
  it('fires once at each 10,000 km crossing and never in between', async () => {
    const m = await createObject(t, 'maintenance', {
      name: 'Oil change',
      type: 'totalDistance',
      start: 0,
      period: 10_000_000,
    });
    const d = await createDevice(t);
    await link(t, { deviceId: d.id, maintenanceId: m.id });
    const ids = await drive(d.uniqueId, [
      0,
      5_000_000,
      9_999_999, // just below 10,000 km
      10_000_000, // crossing k = 1 (exactly)
      15_000_000,
      19_999_000,
      20_000_500, // crossing k = 2
      20_100_000,
      35_000_000, // passes 30,000 km (k = 3): one event for the jump
    ]);
    const events = await reported(d.id);
    expect(events.map((e) => [e.positionId, e.maintenanceId, e.attributes.totalDistance])).toEqual([
      [ids[3], m.id, 10_000_000],
      [ids[6], m.id, 20_000_500],
      [ids[8], m.id, 35_000_000],
    ]);
    const live = heard.filter((e) => e.deviceId === d.id && e.type === 'maintenance');
    expect(live.map((e) => e.maintenanceId)).toEqual([m.id, m.id, m.id]);
  });

  it('no event without a crossing, and none for a device without the maintenance', async () => {
    const m = await createObject(t, 'maintenance', {
      name: 'Tyres',
      type: 'totalDistance',
      start: 0,
      period: 10_000_000,
    });
    const linked = await createDevice(t);
    const other = await createDevice(t);
    await link(t, { deviceId: linked.id, maintenanceId: m.id });
    await drive(linked.uniqueId, [0, 1_000_000, 9_000_000, 9_999_999.99]);
    await drive(other.uniqueId, [0, 12_000_000]);
    expect(await reported(linked.id)).toEqual([]);
    expect(await reported(other.id)).toEqual([]);
  });

  it('a start above 0 fires when the start itself is reached (k = 0), then every period', async () => {
    const m = await createObject(t, 'maintenance', {
      name: 'First service',
      type: 'totalDistance',
      start: 1_000_000,
      period: 5_000_000,
    });
    const d = await createDevice(t);
    await link(t, { deviceId: d.id, maintenanceId: m.id });
    const ids = await drive(d.uniqueId, [0, 999_999, 1_000_000, 5_999_999, 6_000_000]);
    expect((await reported(d.id)).map((e) => e.positionId)).toEqual([ids[2], ids[4]]);
  });

  it('applies maintenances linked to the device’s group', async () => {
    const m = await createObject(t, 'maintenance', {
      name: 'Group service',
      type: 'totalDistance',
      start: 0,
      period: 10_000_000,
    });
    const g = await createObject(t, 'groups', { name: 'Maintained fleet' });
    await link(t, { groupId: g.id, maintenanceId: m.id });
    const d = await createDevice(t, { groupId: g.id });
    const ids = await drive(d.uniqueId, [0, 10_500_000]);
    expect((await reported(d.id)).map((e) => [e.positionId, e.maintenanceId])).toEqual([[ids[1], m.id]]);
  });
});

describe('maintenance by engine hours', () => {
  it('fires when the computed hours cross each 1 h period', async () => {
    const m = await createObject(t, 'maintenance', {
      name: 'Engine check',
      type: 'hours',
      start: 0,
      period: 3_600_000,
    });
    const d = await createDevice(t);
    await link(t, { deviceId: d.id, maintenanceId: m.id });
    // ignition on every 30 minutes: hours 0 (absent), 1.8e6, 3.6e6, 5.4e6, 7.2e6 ms
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await send(d.uniqueId, i * 1800, { ignition: true })).id);
    const events = await reported(d.id);
    expect(events.map((e) => [e.positionId, e.attributes.hours])).toEqual([
      [ids[2], 3_600_000],
      [ids[4], 7_200_000],
    ]);
  });
});

describe('crossesBoundary', () => {
  it('follows start + k·period', () => {
    expect(crossesBoundary(9, 10, 0, 10)).toBe(true);
    expect(crossesBoundary(10, 19, 0, 10)).toBe(false);
    expect(crossesBoundary(19, 41, 0, 10)).toBe(true);
    expect(crossesBoundary(4, 5, 5, 10)).toBe(true);
    expect(crossesBoundary(3, 4, 5, 10)).toBe(false);
    expect(crossesBoundary(9, 20, 0, 0)).toBe(false); // no period: off
    expect(crossesBoundary(20, 10, 0, 10)).toBe(false); // going back never fires
  });
});
