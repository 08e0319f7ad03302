// Device changes reach other users' sockets (issue #28, server/src/live/deviceChanges.ts): two sessions, the
// administrator renames, recategorises and re-attributes a device and links a new one to the user; the user's open
// socket gets each device as a `devices` update; a user who does not see the device gets nothing.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';

interface Dev {
  id: number;
  name: string;
  category: string | null;
  attributes: Record<string, unknown>;
}

let t: TestApp;
let url: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/socket`;
});
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await t.close();
});

/** An open socket of `cookie`, once its first message (the latest positions) is in. */
function open(cookie: string): Promise<{ devices: Dev[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { cookie } });
    sockets.push(ws);
    const seen = { devices: [] as Dev[] };
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { devices?: Dev[]; positions?: unknown[] };
      if (m.devices) seen.devices.push(...m.devices);
      if (m.positions) resolve(seen);
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
});
