// /api/socket (CONTRACT §5) with real `ws` clients on a listening server (127.0.0.1:0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createDevice,
  createObject,
  createUser,
  link,
  postForm,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { getLiveServices } from '../../src/live/index.ts';
import { KEEPALIVE_MS, SNAPSHOT_SLICE } from '../../src/live/socket.ts';
import { inTransaction } from '../../src/db/repos/query.ts';
import { insert } from '../support/testSql.ts';
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

interface Msg {
  positions?: Array<{ deviceId: number; latitude: number }>;
  devices?: Array<{ id: number; status: string }>;
  events?: Array<{ type: string; deviceId: number; attributes: Record<string, unknown> }>;
}

class Client {
  messages: Msg[] = [];
  raw: string[] = [];
  constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      this.raw.push(String(d));
      this.messages.push(JSON.parse(String(d)) as Msg);
    });
  }
  all<K extends keyof Msg>(key: K): NonNullable<Msg[K]> {
    return this.messages.flatMap((m) => (m[key] ?? []) as unknown[]) as NonNullable<Msg[K]>;
  }
  async waitFor(pred: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (pred()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.raw).slice(0, 500)}`);
  }
}

function open(headers: Record<string, string>, query = ''): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url + query, { headers });
    sockets.push(ws);
    const c = new Client(ws);
    ws.once('open', () => resolve(c));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

const now = (offset = 0) => new Date(Date.now() + offset);

async function report(uniqueId: string, lat: number, attributes: Record<string, unknown> = {}) {
  const r = await getLive(t.ctx).ingest({
    uniqueId,
    protocol: 'osmand',
    fixTime: now(),
    latitude: lat,
    longitude: 1,
    attributes,
  });
  if (!r.ok) throw new Error(r.message);
  return r.position;
}

describe('socket', () => {
  let user: CreatedUser;
  let other: CreatedUser;
  let a: { id: number; uniqueId: string };
  let b: { id: number; uniqueId: string };

  beforeAll(async () => {
    user = await createUser(t);
    other = await createUser(t);
    a = await createDevice(t);
    b = await createDevice(t);
    await link(t, { userId: user.id, deviceId: a.id });
    await link(t, { userId: other.id, deviceId: a.id });
    await report(a.uniqueId, 10);
  });

  it('refuses an unauthenticated upgrade', async () => {
    await expect(open({})).rejects.toThrow('HTTP 401');
    await expect(open({}, '?token=bogus')).rejects.toThrow('HTTP 401');
  });

  it('sends the latest positions of visible devices on connect', async () => {
    const c = await open({ cookie: user.cookie });
    await c.waitFor(() => c.messages.length > 0, 'initial message');
    expect(Object.keys(c.messages[0])).toEqual(['positions']);
    expect(c.messages[0].positions!.map((p) => p.deviceId)).toEqual([a.id]);
    c.ws.close();
  });

  it('accepts ?token= from /api/session/token', async () => {
    const res = await postForm(t.app, user.cookie, '/api/session/token', {});
    expect(res.statusCode).toBe(200);
    const c = await open({}, `?token=${encodeURIComponent(res.body)}`);
    await c.waitFor(() => c.messages.length > 0, 'initial message');
    c.ws.close();
  });

  it('pushes devices and positions only for devices the user sees, and follows permission changes', async () => {
    const c = await open({ cookie: user.cookie });
    const admin = await open({ cookie: t.admin });
    await c.waitFor(() => c.messages.length > 0, 'initial');
    await report(b.uniqueId, 20);
    await report(a.uniqueId, 11);
    await c.waitFor(() => c.all('positions').some((p) => p.latitude === 11), 'position of a');
    await admin.waitFor(() => admin.all('positions').some((p) => p.latitude === 20), 'admin sees b');
    expect(c.all('positions').some((p) => p.deviceId === b.id)).toBe(false);
    expect(c.all('devices').some((d) => d.id === a.id && d.status === 'online')).toBe(true);
    expect(c.all('devices').some((d) => d.id === b.id)).toBe(false);

    await link(t, { userId: user.id, deviceId: b.id });
    await report(b.uniqueId, 21);
    await c.waitFor(() => c.all('positions').some((p) => p.latitude === 21), 'b after linking');
    c.ws.close();
    admin.ws.close();
  });

  it('sends events only when they match a web notification of the user, with attributes.message', async () => {
    const n = await createObject(t, 'notifications', {
      type: 'alarm',
      notificators: 'web',
      always: false,
      attributes: { alarms: 'sos' },
    });
    await link(t, { userId: user.id, notificationId: n.id });
    await link(t, { deviceId: a.id, notificationId: n.id });
    const c = await open({ cookie: user.cookie });
    const o = await open({ cookie: other.cookie });
    await report(a.uniqueId, 12, { alarm: 'powerCut' }); // not in the notification's alarms
    await report(a.uniqueId, 13, { alarm: 'sos' });
    await c.waitFor(() => c.all('events').length > 0, 'alarm event');
    await o.waitFor(() => o.all('positions').some((p) => p.latitude === 13), 'other gets the position');
    const events = c.all('events');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'alarm', deviceId: a.id, attributes: { alarm: 'sos' } });
    expect(String(events[0].attributes.message)).toMatch(/ alarme: SOS$/); // pt-BR, the default language
    expect(o.all('events')).toHaveLength(0); // not linked to the notification
    c.ws.close();
    o.ws.close();
  });

  it('sends {} as keepalive every 55 s', async () => {
    expect(KEEPALIVE_MS).toBe(55_000);
    const c = await open({ cookie: user.cookie });
    await c.waitFor(() => c.messages.length > 0, 'initial');
    getLiveServices(t.ctx).hub.keepalive();
    await c.waitFor(() => c.raw.includes('{}'), 'keepalive');
    c.ws.close();
  });

  it('streams raw OsmAnd messages after {"logs":true}', async () => {
    const c = await open({ cookie: t.admin });
    await c.waitFor(() => c.messages.length > 0, 'initial');
    c.ws.send(JSON.stringify({ logs: true }));
    await new Promise((r) => setTimeout(r, 50));
    const res = await t.app.inject({ method: 'POST', url: `/?id=${a.uniqueId}&lat=40&lon=1` });
    expect(res.statusCode).toBe(200);
    await c.waitFor(() => c.raw.some((m) => m.includes('"logs"')), 'logs');
    const logs = c.messages.flatMap((m) => (m as { logs?: Array<Record<string, unknown>> }).logs ?? []);
    expect(logs[0]).toMatchObject({ protocol: 'osmand', uniqueId: a.uniqueId, deviceId: a.id });
    expect(String(logs[0].data)).toContain('lat=40');
    c.ws.close();
  });

  it('batches several positions of one tick into one message', async () => {
    const c = await open({ cookie: user.cookie });
    await c.waitFor(() => c.messages.length > 0, 'initial');
    const before = c.messages.length;
    await getLive(t.ctx).ingestMany(
      [30, 31, 32].map((lat, i) => ({
        uniqueId: a.uniqueId,
        protocol: 'osmand',
        fixTime: now(i + 1),
        latitude: lat,
        longitude: 1,
      })),
    );
    await c.waitFor(() => c.all('positions').some((p) => p.latitude === 32), 'batch');
    const lats = c.all('positions').map((p) => p.latitude);
    expect(lats.slice(-3)).toEqual([30, 31, 32]);
    expect(c.messages.length - before).toBe(1);
    c.ws.close();
  });

  it(`a fleet larger than one slice (${SNAPSHOT_SLICE}): the first message carries every latest position, updates made while it is built come after it`, async () => {
    const count = SNAPSHOT_SLICE + 150;
    const uniqueIds = Array.from({ length: count }, (_, i) => `snap-${i}`);
    const owner = await createUser(t);
    const sql = t.ctx.store.sql;
    await inTransaction(sql, async (tx) => {
      for (const u of uniqueIds) {
        const propertyId = await insert(tx, 'devices', { name: u, uniqueId: u });
        await insert(tx, 'links', {
          ownerType: 'user',
          ownerId: owner.id,
          propertyType: 'device',
          propertyId,
        });
      }
    });
    getLive(t.ctx).cache.invalidate();
    await getLive(t.ctx).ingestMany(
      uniqueIds.map((u) => ({
        uniqueId: u,
        protocol: 'osmand',
        fixTime: now(-60_000),
        latitude: 5,
        longitude: 1,
      })),
    );
    const c = await open({ cookie: owner.cookie });
    // a report while the first message is being built (the socket's open event comes before its slices end)
    await getLive(t.ctx).ingest({
      uniqueId: uniqueIds[count - 1],
      protocol: 'osmand',
      fixTime: now(),
      latitude: 6,
      longitude: 1,
    });
    await c.waitFor(() => c.all('positions').some((p) => p.latitude === 6), 'the update');
    const first = c.messages[0].positions ?? [];
    const ours = new Set(first.filter((p) => p.latitude === 5 || p.latitude === 6).map((p) => p.deviceId));
    expect(ours.size).toBe(count);
    // nothing older than the first message's positions ever follows it
    const later = c.messages.slice(1).flatMap((m) => m.positions ?? []);
    expect(later.every((p) => p.latitude !== 5)).toBe(true);
    c.ws.close();
  });
});
