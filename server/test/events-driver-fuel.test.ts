// driverChanged and deviceFuelDrop/deviceFuelIncrease through the real live core: stored, handed to live
// listeners and found by GET /api/reports/events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  ingestPosition,
  link,
  makeTestApp,
  reportedEvents,
  type TestApp,
} from './helpers/index.ts';
import { getLive } from '../src/live/ingest.ts';
import { getLiveServices } from '../src/live/index.ts';

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
  attributes: Record<string, unknown>;
}

const reported = (deviceId: number, type: string) =>
  reportedEvents<StoredEvent>(t, deviceId, at(-60), at(3600), type);

async function setServerAttributes(attrs: Record<string, unknown>) {
  const s = expectStatus<Record<string, unknown>>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
  expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...s, attributes: attrs }), 200);
}

describe('driverChanged', () => {
  it('fires for the first driver, on every change, never without a change', async () => {
    const d = await createDevice(t);
    await send(d.uniqueId, 0); // no driver at all
    const p1 = await send(d.uniqueId, 10, { driverUniqueId: 'D-100' }); // previous had none
    await send(d.uniqueId, 20, { driverUniqueId: 'D-100' }); // same driver
    await send(d.uniqueId, 30); // this position has none: nothing
    const p4 = await send(d.uniqueId, 40, { driverUniqueId: 'D-200' });
    await send(d.uniqueId, 50, { driverUniqueId: 'D-200' });
    const events = await reported(d.id, 'driverChanged');
    expect(events.map((e) => [e.positionId, e.attributes.driverUniqueId])).toEqual([
      [p1.id, 'D-100'],
      [p4.id, 'D-200'],
    ]);
    const live = heard.filter((e) => e.deviceId === d.id && e.type === 'driverChanged');
    expect(live.map((e) => e.attributes.driverUniqueId)).toEqual(['D-100', 'D-200']);
  });

  it('fires on the very first position when it names a driver', async () => {
    const d = await createDevice(t);
    await send(d.uniqueId, 0, { driverUniqueId: 'X1' });
    expect((await reported(d.id, 'driverChanged')).map((e) => e.attributes.driverUniqueId)).toEqual(['X1']);
  });
});

describe('deviceFuelDrop / deviceFuelIncrease', () => {
  it('a drop of exactly the threshold fires, a smaller one does not (device attribute)', async () => {
    const d = await createDevice(t, { attributes: { fuelDropThreshold: 10 } });
    await send(d.uniqueId, 0, { fuel: 50 });
    await send(d.uniqueId, 10, { fuel: 40.5 }); // -9.5: below the threshold
    const p = await send(d.uniqueId, 20, { fuel: 30.5 }); // -10: exactly the threshold
    await send(d.uniqueId, 30, { fuel: 60 }); // +29.5 but no increase threshold set
    const drops = await reported(d.id, 'deviceFuelDrop');
    expect(drops.map((e) => [e.positionId, e.attributes.fuel, e.attributes.previous])).toEqual([
      [p.id, 30.5, 40.5],
    ]);
    expect(await reported(d.id, 'deviceFuelIncrease')).toEqual([]);
    expect(heard.filter((e) => e.deviceId === d.id).map((e) => e.type)).toContain('deviceFuelDrop');
  });

  it('an increase of exactly the threshold fires, a smaller one does not', async () => {
    const d = await createDevice(t, { attributes: { fuelIncreaseThreshold: 20 } });
    await send(d.uniqueId, 0, { fuel: 10 });
    await send(d.uniqueId, 10, { fuel: 29.9 }); // +19.9
    const p = await send(d.uniqueId, 20, { fuel: 49.9 }); // +20
    await send(d.uniqueId, 30, { fuel: 5 }); // a drop with no drop threshold
    const ups = await reported(d.id, 'deviceFuelIncrease');
    expect(ups.map((e) => [e.positionId, e.attributes.fuel])).toEqual([[p.id, 49.9]]);
    expect(await reported(d.id, 'deviceFuelDrop')).toEqual([]);
  });

  it('skips positions without fuel and falls back to fuelLevel', async () => {
    const d = await createDevice(t, { attributes: { fuelDropThreshold: 5 } });
    await send(d.uniqueId, 0, { fuel: 40 });
    await send(d.uniqueId, 10); // no fuel reading: ignored
    const p = await send(d.uniqueId, 20, { fuel: 35 }); // 40 → 35 across the gap
    await send(d.uniqueId, 30, { fuelLevel: 80 }); // another key: not compared with litres
    const q = await send(d.uniqueId, 40, { fuelLevel: 74 });
    const drops = await reported(d.id, 'deviceFuelDrop');
    expect(drops.map((e) => e.positionId)).toEqual([p.id, q.id]);
    expect(drops[1].attributes.fuelLevel).toBe(74);
  });

  it('threshold 0 is off', async () => {
    const d = await createDevice(t, { attributes: { fuelDropThreshold: 0 } });
    await send(d.uniqueId, 0, { fuel: 50 });
    await send(d.uniqueId, 10, { fuel: 1 });
    expect(await reported(d.id, 'deviceFuelDrop')).toEqual([]);
  });

  it('looks the threshold up device → group → server', async () => {
    const parent = await createObject(t, 'groups', {
      name: 'Fuel parent',
      attributes: { fuelDropThreshold: 8 },
    });
    const child = await createObject(t, 'groups', { name: 'Fuel child', groupId: parent.id });
    const inGroup = await createDevice(t, { groupId: child.id });
    const own = await createDevice(t, { groupId: child.id, attributes: { fuelDropThreshold: 3 } });
    const plain = await createDevice(t);
    await setServerAttributes({ fuelDropThreshold: 15 });
    for (const d of [inGroup, own, plain]) {
      await send(d.uniqueId, 0, { fuel: 100 });
      await send(d.uniqueId, 10, { fuel: 96 }); // -4
      await send(d.uniqueId, 20, { fuel: 88 }); // -8
      await send(d.uniqueId, 30, { fuel: 73 }); // -15
    }
    const count = async (id: number) => (await reported(id, 'deviceFuelDrop')).length;
    expect(await count(own.id)).toBe(3); // device 3: -4, -8, -15
    expect(await count(inGroup.id)).toBe(2); // parent group 8: -8, -15
    expect(await count(plain.id)).toBe(1); // server 15: -15
    await setServerAttributes({});
  });
});

describe('notifications', () => {
  it('driverChanged and deviceFuelDrop reach the web and mail channels with their texts', async () => {
    const { notifier, hub } = getLiveServices(t.ctx);
    const mails: Array<{ userId: number; body: string }> = [];
    notifier.setNotificator({
      type: 'mail',
      configured: () => true,
      async send(user, message) {
        mails.push({ userId: user.id, body: message.body });
      },
    });
    const pushed: Array<{ userId: number; event: Event }> = [];
    const original = hub.pushEvent.bind(hub);
    hub.pushEvent = (userId, event) => {
      pushed.push({ userId, event });
      original(userId, event);
    };
    const user = await createUser(t);
    const d = await createDevice(t, { attributes: { fuelDropThreshold: 10 } });
    await link(t, { userId: user.id, deviceId: d.id });
    for (const type of ['driverChanged', 'deviceFuelDrop']) {
      const n = await createObject(t, 'notifications', { type, notificators: 'web,mail' });
      await link(t, { deviceId: d.id, notificationId: n.id });
      await link(t, { userId: user.id, notificationId: n.id });
    }
    const now = Date.now();
    for (const [i, attributes] of [{ fuel: 60 }, { fuel: 50, driverUniqueId: 'D-7' }].entries()) {
      const r = await getLive(t.ctx).ingest({
        uniqueId: d.uniqueId,
        protocol: 'osmand',
        fixTime: new Date(now + i * 1000),
        latitude: 1,
        longitude: 1,
        attributes,
      });
      if (!r.ok) throw new Error(r.message);
    }
    hub.pushEvent = original;
    const expected = [`${d.name} queda de combustível`, `${d.name} troca de motorista: D-7`];
    expect(mails.filter((m) => m.userId === user.id).map((m) => m.body)).toEqual(expected);
    const web = pushed.filter((p) => p.userId === user.id && p.event.deviceId === d.id);
    expect(web.map((p) => [p.event.type, p.event.attributes.message])).toEqual([
      ['deviceFuelDrop', expected[0]],
      ['driverChanged', expected[1]],
    ]);
  });
});
