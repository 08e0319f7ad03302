// The demo fleet keeps the monitoring center alive (issue #32): an SOS about every 10 minutes and a towing about every
// 20; a test forces each through the fleet's incidents and sees the alarm in the queue.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Alarm } from '@rastro/domain';
import { api, expectStatus, makeTestApp, type TestApp } from '../helpers/app.ts';
import { getLive } from '../../src/live/ingest.ts';
import { startFleet, type Fleet } from '../../src/live/simulator/index.ts';
import { catalogEntry } from '../../src/live/simulator/catalog.ts';
import { Vehicle } from '../../src/live/simulator/vehicle.ts';
import { DEMO_SOS_EVERY_MS, DEMO_TOW_EVERY_MS, DemoIncidents } from '../../src/live/simulator/incidents.ts';
import { first } from '../support/testSql.ts';
import { alarmDetector } from '../../src/ext/alarms.ts';

let t: TestApp;
let fleet: Fleet;

// The fleet's clock at 03:00 in São Paulo (it still advances): a towed vehicle then stays parked where it was left
// until the morning, as a stolen one would. By day a vehicle with a short stop (a motorcycle parks 3-30 minutes)
// could drive off before the towing rule's consecutive fixes (the vehicles step an hour per tick here): the test
// failed at some times of day (session 28).
const NIGHT = Date.parse('2026-11-29T06:00:00Z');

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: NIGHT });
  t = await makeTestApp({ simDevices: 8, simIntervalMs: 3_600_000 });
  fleet = (await startFleet(t.ctx))!;
  await fleet.ready;
  await getLive(t.ctx).settle();
}, 120_000);

afterAll(async () => {
  await t.close();
  vi.useRealTimers();
});

// The positions stored (on PostgreSQL the pooled batches: settle, not flushNow) and the alarm detection that runs after
// them, queued on the pool (issue #30, session 33): before, a loaded machine could read the queue before either.
const settled = async () => {
  await getLive(t.ctx).settle();
  await alarmDetector(t.ctx)!.settled();
};

const alarmsOf = async (uniqueId: string, type: string) => {
  const list = expectStatus<Alarm[]>(
    await api(t.app, t.admin, 'GET', `/rastro/alarms?all=true&type=${type}`),
    200,
  );
  const id = ((await first(t.ctx.store.sql, 'devices', { uniqueId }, { columns: ['id'] })) as { id: number })
    .id;
  return list.filter((a) => a.deviceId === id);
};

describe('demo incidents', () => {
  it('an SOS forced on a vehicle reaches the queue at its next report', async () => {
    const vehicles = [...fleet.vehicles.values()].filter((v) => v.entry.behaviour === 'normal');
    const v = fleet.incidents.force('sos', vehicles)!;
    await fleet.tick(Date.now() + 130_000);
    await settled();
    expect((await alarmsOf(v.entry.uniqueId, 'sos')).map((a) => a.state)).toEqual(['open']);
  });

  it('a parked vehicle towed away (ignition off) raises a towing alarm', async () => {
    const parked = [...fleet.vehicles.values()].filter((v) => v.entry.behaviour === 'normal' && v.towable);
    const v = fleet.incidents.force('towing', parked)!;
    expect(v).not.toBeNull();
    for (let i = 1; i <= 4; i++) {
      await fleet.tick(Date.now() + 200_000 + i * 130_000);
      await settled();
    }
    expect((await alarmsOf(v.entry.uniqueId, 'towing')).length).toBe(1);
  });

  it('one SOS every 10 minutes and one towing every 20, the first ones half a period after the start', () => {
    const start = Date.parse('2026-11-28T00:00:00Z');
    const incidents = new DemoIncidents(1, start);
    // fresh vehicles: all parked, so each towing finds one
    const vehicles = [1, 2, 3].map((i) => new Vehicle(catalogEntry(i, 1, 'rastro'), 1, []));
    const kinds: string[] = [];
    for (let m = 0; m <= 40; m++)
      for (const i of incidents.tick(start + m * 60_000, vehicles)) kinds.push(`${m}:${i.kind}`);
    expect(DEMO_SOS_EVERY_MS).toBe(600_000);
    expect(DEMO_TOW_EVERY_MS).toBe(1_200_000);
    expect(kinds).toEqual(['5:sos', '10:towing', '15:sos', '25:sos', '30:towing', '35:sos']);
    expect(vehicles.filter((v) => !v.towable)).toHaveLength(2);
  });
});
