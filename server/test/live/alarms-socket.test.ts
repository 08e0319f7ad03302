// Alarms of the monitoring center on the live socket (issue #32): a new or handled alarm reaches, as the message
// key `alarms`, the sockets of whoever sees its device and of administrators, and no one else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Alarm } from '@rastro/domain';
import { api, createDevice, createUser, expectStatus, link, type TestApp } from '../helpers/index.ts';
import { startSocketApp } from '../support/socketApp.ts';

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

async function open(cookie: string): Promise<Alarm[]> {
  const received: Alarm[] = [];
  const ws = new WebSocket(url, { headers: { cookie } });
  sockets.push(ws);
  ws.on('message', (d) => received.push(...((JSON.parse(String(d)) as { alarms?: Alarm[] }).alarms ?? [])));
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  return received;
}

const until = async (pred: () => boolean) => {
  for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
  return pred();
};

describe('alarms on the socket', () => {
  it('to the device’s users and administrators, with each step; not to others', async () => {
    const device = await createDevice(t);
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await link(t, { userId: owner.id, deviceId: device.id });
    const [toAdmin, toOwner, toStranger] = await Promise.all([
      open(t.admin),
      open(owner.cookie),
      open(stranger.cookie),
    ]);
    const post = (q: string) =>
      t.app.inject({ method: 'POST', url: `/?id=${device.uniqueId}&lat=1&lon=1&${q}` });
    const now = Math.floor(Date.now() / 1000);
    expect((await post(`timestamp=${now}`)).statusCode).toBe(200);
    expect((await post(`timestamp=${now + 1}&alarm=sos`)).statusCode).toBe(200);
    expect(await until(() => toAdmin.some((a) => a.deviceId === device.id))).toBe(true);
    expect(await until(() => toOwner.some((a) => a.deviceId === device.id && a.type === 'sos'))).toBe(true);
    const id = toOwner.find((a) => a.deviceId === device.id)!.id;
    expectStatus(await api(t.app, t.admin, 'POST', `/rastro/alarms/${id}/ack`, { note: 'seen' }), 200);
    expect(await until(() => toOwner.some((a) => a.id === id && a.state === 'acknowledged'))).toBe(true);
    expect(toStranger).toEqual([]);
  });
});
