// deviceInactive through the real live core with an injected clock: once at lastUpdate + deviceInactivityStart,
// again every deviceInactivityPeriod while silent, never twice for one window, over again after a new report.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Event } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  expectStatus,
  laterFixTime,
  makeTestApp,
  reportedEvents,
  type TestApp,
} from './helpers/index.ts';
import { getLive, type LiveCore } from '../src/live/ingest.ts';
import { InactivityMonitor } from '../src/live/events/index.ts';

let t: TestApp;
let live: LiveCore;
const heard: Event[] = [];
beforeAll(async () => {
  t = await makeTestApp();
  live = getLive(t.ctx);
  live.subscribe({ events: (evs) => heard.push(...evs) });
});
afterAll(async () => {
  await t.close();
});

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Reports one position now; returns the device's lastUpdate (server receive time) in ms. */
async function report(uniqueId: string): Promise<number> {
  const r = await live.ingest({
    uniqueId,
    protocol: 'osmand',
    fixTime: laterFixTime(),
    latitude: 1,
    longitude: 1,
  });
  if (!r.ok) throw new Error(r.message);
  const lastUpdate = live.deviceJson(r.deviceId)?.lastUpdate;
  if (!lastUpdate) throw new Error('no lastUpdate');
  return Date.parse(lastUpdate);
}

/** The deviceInactive events a sweep at `now` raised for the device. */
async function sweep(deviceId: number, now: number, monitor?: InactivityMonitor): Promise<Event[]> {
  const raised = await (monitor ?? live.liveEvents.inactivity).sweep(now);
  return raised.filter((e) => e.deviceId === deviceId);
}

describe('deviceInactive', () => {
  it('fires once at the start when no period is set', async () => {
    const d = await createDevice(t, { attributes: { deviceInactivityStart: 2 * HOUR } });
    const L = await report(d.uniqueId);
    expect(await sweep(d.id, L + 2 * HOUR - 1)).toEqual([]);
    const [e, ...more] = await sweep(d.id, L + 2 * HOUR);
    expect(more).toEqual([]);
    expect(e).toMatchObject({
      type: 'deviceInactive',
      deviceId: d.id,
      positionId: 0,
      eventTime: new Date(L + 2 * HOUR).toISOString().replace('Z', '+00:00'),
    });
    expect(e.attributes.lastUpdate).toBe(L);
    expect(await sweep(d.id, L + 2 * HOUR + MIN)).toEqual([]);
    expect(await sweep(d.id, L + 30 * HOUR)).toEqual([]);
  });

  it('fires again after each period, not before, once per window', async () => {
    const d = await createDevice(t, {
      attributes: { deviceInactivityStart: HOUR, deviceInactivityPeriod: 30 * MIN },
    });
    const L = await report(d.uniqueId);
    expect(await sweep(d.id, L + HOUR)).toHaveLength(1); // window 0
    expect(await sweep(d.id, L + HOUR + 29 * MIN)).toEqual([]);
    expect(await sweep(d.id, L + HOUR + 30 * MIN)).toHaveLength(1); // window 1
    expect(await sweep(d.id, L + HOUR + 45 * MIN)).toEqual([]);
    expect(await sweep(d.id, L + HOUR + 60 * MIN)).toHaveLength(1); // window 2
    // a late sweep (windows 3–5 missed) fires once, for the current window only
    expect(await sweep(d.id, L + HOUR + 170 * MIN)).toHaveLength(1);
    expect(await sweep(d.id, L + HOUR + 179 * MIN)).toEqual([]);
  });

  it('starts over after a new position', async () => {
    const d = await createDevice(t, { attributes: { deviceInactivityStart: HOUR } });
    const L1 = await report(d.uniqueId);
    expect(await sweep(d.id, L1 + HOUR)).toHaveLength(1);
    // the next report must carry a later receive time than the first (same millisecond = same silence)
    while (Date.now() <= L1) await new Promise((r) => setTimeout(r, 1));
    const L2 = await report(d.uniqueId);
    expect(L2).toBeGreaterThan(L1);
    expect(await sweep(d.id, L2 + HOUR - 1)).toEqual([]);
    const again = await sweep(d.id, L2 + HOUR);
    expect(again).toHaveLength(1);
    expect(again[0].attributes.lastUpdate).toBe(L2);
  });

  it('ignores devices that never reported and devices without a start', async () => {
    const silent = await createDevice(t, { attributes: { deviceInactivityStart: MIN } });
    const plain = await createDevice(t);
    await report(plain.uniqueId);
    const far = Date.now() + 1000 * HOUR;
    expect(await sweep(silent.id, far)).toEqual([]);
    expect(await sweep(plain.id, far)).toEqual([]);
  });

  it('looks start and period up device → group → server', async () => {
    const g = await createObject(t, 'groups', {
      name: 'Quiet fleet',
      attributes: { deviceInactivityStart: 3 * HOUR, deviceInactivityPeriod: HOUR },
    });
    const inGroup = await createDevice(t, { groupId: g.id });
    const own = await createDevice(t, { groupId: g.id, attributes: { deviceInactivityStart: HOUR } });
    const s = expectStatus<Record<string, unknown>>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...s,
        attributes: { deviceInactivityStart: 5 * HOUR },
      }),
      200,
    );
    const plain = await createDevice(t);
    const L = {
      g: await report(inGroup.uniqueId),
      o: await report(own.uniqueId),
      p: await report(plain.uniqueId),
    };
    // chronological sweeps (each sweep covers every device)
    expect(await sweep(own.id, L.o + HOUR)).toHaveLength(1); // own start, group period
    expect(await sweep(own.id, L.o + 2 * HOUR)).toHaveLength(1);
    expect(await sweep(inGroup.id, L.g + 3 * HOUR - 1)).toEqual([]);
    expect(await sweep(inGroup.id, L.g + 3 * HOUR)).toHaveLength(1);
    expect(await sweep(plain.id, L.p + 5 * HOUR - 1)).toEqual([]);
    expect(await sweep(plain.id, L.p + 5 * HOUR)).toHaveLength(1);
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...s, attributes: {} }), 200);
  });

  it('a restarted sweep does not repeat a stored window', async () => {
    const d = await createDevice(t, {
      attributes: { deviceInactivityStart: HOUR, deviceInactivityPeriod: HOUR },
    });
    const L = await report(d.uniqueId);
    expect(await sweep(d.id, L + HOUR + MIN)).toHaveLength(1);
    // a fresh monitor with no memory, reading lastUpdate as a restarted core would (from the device row)
    const restarted = new InactivityMonitor(
      live,
      () => t.ctx.store.sql,
      (id) => (id === d.id ? new Date(L) : null),
    );
    expect(await sweep(d.id, L + HOUR + 2 * MIN, restarted)).toEqual([]);
    expect(await sweep(d.id, L + 2 * HOUR, restarted)).toHaveLength(1);
  });

  it('runs with the status sweep and the injected clock; events are published and stored', async () => {
    const d = await createDevice(t, { attributes: { deviceInactivityStart: 4 * HOUR } });
    const L = await report(d.uniqueId);
    const now = L + 4 * HOUR;
    live.sweep(now); // the core's periodic sweep: its reads on the pool, its events once they are in
    const published = () => heard.filter((e) => e.deviceId === d.id && e.type === 'deviceInactive');
    await vi.waitFor(() => expect(published()).toHaveLength(1));
    live.liveEvents.inactivity.clock = () => now + HOUR;
    expect((await live.liveEvents.inactivity.sweep()).filter((e) => e.deviceId === d.id)).toEqual([]); // same window
    live.liveEvents.inactivity.clock = Date.now;
    const stored = await reportedEvents<Event>(t, d.id, new Date(L), new Date(now + HOUR), 'deviceInactive');
    expect(stored.map((e) => [e.id, e.attributes.lastUpdate])).toEqual([[published()[0].id, L]]);
  });
});
