// Device changes reach other users' sockets (issue #28, server/src/live/deviceChanges.ts): two sessions, the
// administrator renames, recategorises and re-attributes a device and links a new one to the user; the user's open
// socket gets each device as a `devices` update; a user who does not see the device gets nothing. A device deleted,
// unlinked, or leaving the user's sight through a group link reaches it as `removedDevices`; one coming into sight
// through a group arrives with its latest position.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { api, createDevice, createUser, expectStatus, link, unlink, type TestApp } from '../helpers/index.ts';
import { startSocketApp } from '../support/socketApp.ts';

interface Dev {
  id: number;
  name: string;
  category: string | null;
  attributes: Record<string, unknown>;
}

let t: TestApp;
let url: string;
let sockets: WebSocket[];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, url, sockets, close } = await startSocketApp());
});
afterAll(async () => {
  await close();
});

/** An open socket of `cookie`, once its first message (the latest positions) is in. */
interface Seen {
  devices: Dev[];
  removed: number[];
  positions: Array<{ deviceId: number }>;
}

function open(cookie: string): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { cookie } });
    sockets.push(ws);
    const seen: Seen = { devices: [], removed: [], positions: [] };
    let first = true;
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as {
        devices?: Dev[];
        positions?: Array<{ deviceId: number }>;
        removedDevices?: number[];
      };
      if (m.devices) seen.devices.push(...m.devices);
      if (m.removedDevices) seen.removed.push(...m.removedDevices);
      if (m.positions && !first) seen.positions.push(...m.positions);
      if (m.positions && first) {
        first = false;
        resolve(seen);
      }
    });
    ws.once('error', reject);
  });
}

async function until(pred: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (pred()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('device changes over the socket', () => {
  it("an administrator's edits and links reach the user who sees the device", async () => {
    const ana = await createUser(t);
    const bia = await createUser(t);
    const van = await createDevice(t, { name: 'Van 1' });
    await link(t, { userId: ana.id, deviceId: van.id });
    const anaSocket = await open(ana.cookie);
    const biaSocket = await open(bia.cookie);

    const body = { ...van, name: 'Van renomeada', category: 'van', attributes: { speedLimit: 40 } };
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${van.id}`, body), 200);
    await until(() => anaSocket.devices.some((d) => d.name === 'Van renomeada'), 'the renamed device');
    expect(anaSocket.devices.find((d) => d.name === 'Van renomeada')).toMatchObject({
      id: van.id,
      category: 'van',
      attributes: { speedLimit: 40 },
    });

    const truck = await createDevice(t, { name: 'Caminhão 2' });
    await link(t, { userId: ana.id, deviceId: truck.id });
    await until(() => anaSocket.devices.some((d) => d.id === truck.id), 'the newly linked device');

    // the other user sees neither: nothing was sent to it
    await new Promise((r) => setTimeout(r, 300));
    expect(biaSocket.devices).toEqual([]);
  });

  it('a deleted or unlinked device leaves the open pages of the users who saw it', async () => {
    const ana = await createUser(t);
    const bia = await createUser(t);
    const van = await createDevice(t, { name: 'Van apagada' });
    const car = await createDevice(t, { name: 'Carro desvinculado' });
    await link(t, { userId: ana.id, deviceId: van.id });
    await link(t, { userId: ana.id, deviceId: car.id });
    const anaSocket = await open(ana.cookie);
    const biaSocket = await open(bia.cookie);

    expectStatus(await api(t.app, t.admin, 'DELETE', `/api/devices/${van.id}`), 204);
    await until(() => anaSocket.removed.includes(van.id), 'the deleted device');

    await unlink(t, { userId: ana.id, deviceId: car.id });
    await until(() => anaSocket.removed.includes(car.id), 'the unlinked device');
    expect(anaSocket.removed).toEqual([van.id, car.id]);
    await new Promise((r) => setTimeout(r, 300));
    expect(biaSocket.removed).toEqual([]);
  });

  it("a group link brings the group's devices into sight and its removal takes them away", async () => {
    const ana = await createUser(t);
    const group = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/groups', { name: 'Frota norte' }),
      200,
    );
    const truck = await createDevice(t, { name: 'Caminhão do grupo', groupId: group.id });
    const now = Math.floor(Date.now() / 1000);
    const fix = `/?id=${truck.uniqueId}&lat=-23.5&lon=-46.6&timestamp=${now}`;
    expect((await t.app.inject({ method: 'POST', url: fix })).statusCode).toBe(200);
    const anaSocket = await open(ana.cookie);

    await link(t, { userId: ana.id, groupId: group.id });
    await until(() => anaSocket.devices.some((d) => d.id === truck.id), "the group's device");
    await until(() => anaSocket.positions.some((p) => p.deviceId === truck.id), "the device's position");

    await unlink(t, { userId: ana.id, groupId: group.id });
    await until(() => anaSocket.removed.includes(truck.id), 'the device out of sight');
  });
});
