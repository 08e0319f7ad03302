// Issue #27: Traccar's web app Logs page (socket `{"logs":true}`, CONTRACT §5 LogRecord) also lists messages from
// devices that are not registered, so an administrator can see their identifier and register them. Those records
// carry deviceId 0 and reach administrators only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDevice, createUser, link, type TestApp } from '../helpers/index.ts';
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

type LogRecord = { host: string; protocol: string; uniqueId: string; deviceId: number; data: string };

/** A socket that asked for logs; `logs` collects every LogRecord received. */
async function logSocket(cookie: string) {
  const logs: LogRecord[] = [];
  let first = false;
  const ws = new WebSocket(url, { headers: { cookie } });
  sockets.push(ws);
  ws.on('message', (d) => {
    first = true;
    const m = JSON.parse(String(d)) as { logs?: LogRecord[] };
    logs.push(...(m.logs ?? []));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  await until(() => first, 'the first message');
  ws.send(JSON.stringify({ logs: true }));
  return { ws, logs };
}

async function until(pred: () => boolean, what: string) {
  for (let i = 0; i < 250; i++) {
    if (pred()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('socket logs of unknown devices', () => {
  it('an unregistered OsmAnd id reaches the administrator as a LogRecord with deviceId 0, not a user', async () => {
    const known = await createDevice(t);
    const u = await createUser(t);
    await link(t, { userId: u.id, deviceId: known.id });
    const admin = await logSocket(t.admin);
    const user = await logSocket(u.cookie);
    const ping = async () =>
      t.app.inject({ method: 'POST', url: `/?id=${known.uniqueId}&lat=10&lon=1` }).then((r) => r.statusCode);
    // the toggles are read asynchronously: known messages until both sockets have one prove they were applied
    for (let i = 0; i < 100 && !(admin.logs.length && user.logs.length); i++) {
      expect(await ping()).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(user.logs.length).toBeGreaterThan(0);

    const seen = user.logs.length;
    const res = await t.app.inject({ method: 'POST', url: '/?id=stranger-27&lat=-23.5&lon=-46.6&speed=3' });
    expect(res.statusCode).toBe(400);
    await until(() => admin.logs.some((l) => l.uniqueId === 'stranger-27'), 'the unknown device log');
    const rec = admin.logs.find((l) => l.uniqueId === 'stranger-27')!;
    expect(rec).toMatchObject({ protocol: 'osmand', uniqueId: 'stranger-27', deviceId: 0 });
    expect(rec.data).toContain('lat=-23.5');
    // a later known message has arrived for the user, so the unknown one would have come before it
    expect(await ping()).toBe(200);
    await until(() => user.logs.length > seen, 'the next known log');
    expect(user.logs.some((l) => l.uniqueId === 'stranger-27')).toBe(false);
    admin.ws.close();
    user.ws.close();
  });
});
