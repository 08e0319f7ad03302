// Device changes reach open pages on the other process too (issue #28, live/deviceChanges.ts, db/cluster.ts): two
// server processes on one PostgreSQL database; a user's socket is open on B while the administrator works on A.
// A device edited on A reaches B's socket as a `devices` update; unlinked, deleted or out of sight through a group
// link, as `removedDevices`; linked again, as the device and its latest position. Another user on B hears nothing.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { startServerProcess } from '../support/serverProcess.ts';

const AUTH = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

interface Proc {
  child: ChildProcess;
  base: string;
  osmand: string;
  exited: Promise<number | null>;
}

interface Seen {
  devices: Array<{ id: number; name: string; attributes: Record<string, unknown> }>;
  removed: number[];
  positions: Array<{ deviceId: number; attributes: Record<string, unknown> }>;
  close(): void;
}

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const s = await startServerProcess({ osmand: true, readyTimeoutMs: 120_000, env });
  return { child: s.child, base: s.url, osmand: s.osmandUrl!, exited: s.exited };
}

async function until(what: string, pred: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function call(p: Proc, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${p.base}${path}`, {
    method,
    headers: body === undefined ? AUTH : JSON_AUTH,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function created<T>(p: Proc, path: string, body: unknown): Promise<T> {
  const res = await call(p, 'POST', path, body);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function permission(p: Proc, method: 'POST' | 'DELETE', link: Record<string, number>): Promise<void> {
  expect((await call(p, method, '/api/permissions', link)).status).toBe(204);
}

async function signIn(p: Proc, email: string): Promise<string> {
  const login = await fetch(`${p.base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.base },
    body: `email=${encodeURIComponent(email)}&password=secret-pass`,
  });
  expect(login.status).toBe(200);
  return (login.headers.get('set-cookie') ?? '').split(';')[0];
}

/** A socket of `email` on `p`, once its first message (the latest positions) is in. */
async function openSocket(p: Proc, email: string): Promise<Seen> {
  const cookie = await signIn(p, email);
  const ws = new WebSocket(`${p.base.replace('http', 'ws')}/api/socket`, {
    headers: { cookie, origin: p.base },
  });
  const seen: Seen = { devices: [], removed: [], positions: [], close: () => ws.close() };
  let first = true;
  await new Promise<void>((ok, fail) => {
    ws.on('message', (m: Buffer) => {
      const msg = JSON.parse(m.toString()) as {
        devices?: Seen['devices'];
        positions?: Seen['positions'];
        removedDevices?: number[];
      };
      seen.devices.push(...(msg.devices ?? []));
      seen.removed.push(...(msg.removedDevices ?? []));
      if (msg.positions && first) {
        first = false;
        ok();
      } else seen.positions.push(...(msg.positions ?? []));
    });
    ws.once('error', fail);
  });
  return seen;
}

describe('device changes on two processes', () => {
  const key = `sight-${randomUUID()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'rastro-sight-cluster-'));
  let a: Proc;
  let b: Proc;
  beforeAll(async () => {
    if (!TEST_DATABASE_URL)
      throw new Error('these tests need PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
    const env = { ...(await storeEnv(key)), DATA_DIR: dataDir, LOG_LEVEL: 'warn' } as Record<string, string>;
    a = await startProcess(env);
    b = await startProcess(env);
  }, 240_000);
  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGKILL');
    await Promise.all([a?.exited, b?.exited]);
    rmSync(dataDir, { recursive: true, force: true });
    await dropStore(key);
  });

  it('edits, unlinks, deletions and group links made on A reach a user’s socket on B', async () => {
    const ana = await created<{ id: number }>(a, '/api/users', {
      name: 'Ana',
      email: 'ana@sight.test',
      password: 'secret-pass',
    });
    await created(a, '/api/users', { name: 'Bia', email: 'bia@sight.test', password: 'secret-pass' });
    const group = await created<{ id: number }>(a, '/api/groups', { name: 'Frota sul' });
    const van = await created<{ id: number; name: string }>(a, '/api/devices', {
      name: 'Van',
      uniqueId: 'sight-van',
    });
    const car = await created<{ id: number }>(a, '/api/devices', { name: 'Carro', uniqueId: 'sight-car' });
    const truck = await created<{ id: number }>(a, '/api/devices', {
      name: 'Caminhão',
      uniqueId: 'sight-truck',
      groupId: group.id,
    });
    const t0 = Math.floor(Date.now() / 1000);
    const fix = await fetch(`${a.osmand}/?id=sight-van&lat=-23.5&lon=-46.6&timestamp=${t0}`, {
      method: 'POST',
    });
    expect(fix.status).toBe(200);
    await permission(a, 'POST', { userId: ana.id, deviceId: van.id });
    await permission(a, 'POST', { userId: ana.id, deviceId: car.id });
    await permission(a, 'POST', { userId: ana.id, groupId: group.id });

    const anaOnB = await openSocket(b, 'ana@sight.test');
    const biaOnB = await openSocket(b, 'bia@sight.test');

    // an edit: the device as it is now
    const res = await call(a, 'PUT', `/api/devices/${van.id}`, { ...van, name: 'Van renomeada' });
    expect(res.status).toBe(200);
    await until('the renamed van on B', () =>
      anaOnB.devices.some((d) => d.id === van.id && d.name === 'Van renomeada'),
    );

    // an unlink, a deletion, a group link removed: each device leaves the page
    await permission(a, 'DELETE', { userId: ana.id, deviceId: van.id });
    await until('the unlinked van on B', () => anaOnB.removed.includes(van.id));
    expect((await call(a, 'DELETE', `/api/devices/${car.id}`)).status).toBe(204);
    await until('the deleted car on B', () => anaOnB.removed.includes(car.id));
    await permission(a, 'DELETE', { userId: ana.id, groupId: group.id });
    await until('the truck out of sight on B', () => anaOnB.removed.includes(truck.id));
    expect(anaOnB.removed).toEqual([van.id, car.id, truck.id]);

    // linked again: the device and its latest position come back
    anaOnB.devices.length = 0;
    await permission(a, 'POST', { userId: ana.id, deviceId: van.id });
    await until('the van back on B', () => anaOnB.devices.some((d) => d.id === van.id));
    await until('the van’s position on B', () => anaOnB.positions.some((p) => p.deviceId === van.id));

    // the other user saw none of these devices: nothing reached it
    await new Promise((r) => setTimeout(r, 500));
    expect(biaOnB.devices).toEqual([]);
    expect(biaOnB.removed).toEqual([]);
    anaOnB.close();
    biaOnB.close();
  });

  it('a QR driver’s check-in on A reaches a socket on B and the driver rides on positions reported to B', async () => {
    const server = (await (await call(a, 'GET', '/api/server')).json()) as {
      attributes: Record<string, unknown>;
    };
    const on = { ...server, attributes: { ...server.attributes, 'rastro.qrDriverCheckin': true } };
    expect((await call(a, 'PUT', '/api/server', on)).status).toBe(200);
    const driver = await created<{ id: number }>(a, '/api/drivers', {
      name: 'João QR',
      uniqueId: 'qr-joao',
      attributes: { qrUsername: 'joao', qrPassword: 'senha-do-qr' },
    });
    const qr = await created<{ id: number }>(a, '/api/users', {
      name: 'João',
      email: 'joao@sight.test',
      password: 'secret-pass',
      attributes: { 'rastro.isQrDriverId': driver.id },
    });
    const cara = await created<{ id: number }>(a, '/api/users', {
      name: 'Cara',
      email: 'cara@sight.test',
      password: 'secret-pass',
    });
    const bus = await created<{ id: number }>(a, '/api/devices', {
      name: 'Ônibus',
      uniqueId: 'sight-bus',
      attributes: { 'rastro.qrDriver': true },
    });
    await permission(a, 'POST', { userId: qr.id, deviceId: bus.id });
    await permission(a, 'POST', { userId: cara.id, deviceId: bus.id });
    const caraOnB = await openSocket(b, 'cara@sight.test');

    const qrCookie = await signIn(a, 'joao@sight.test');
    const checkIn = await fetch(`${a.base}/rastro/qr-driver`, {
      method: 'POST',
      headers: { cookie: qrCookie, origin: a.base, 'content-type': 'application/json' },
      body: JSON.stringify({ id: bus.id, password: 'senha-do-qr' }),
    });
    expect(checkIn.status).toBe(200);
    await until('the bus with its driver on B', () =>
      caraOnB.devices.some((d) => d.id === bus.id && d.attributes.driverUniqueId === 'qr-joao'),
    );

    const t1 = Math.floor(Date.now() / 1000);
    const fix = await fetch(`${b.osmand}/?id=sight-bus&lat=-23.5&lon=-46.6&timestamp=${t1}`, {
      method: 'POST',
    });
    expect(fix.status).toBe(200);
    await until('the position on B', () => caraOnB.positions.some((p) => p.deviceId === bus.id));
    expect(caraOnB.positions.find((p) => p.deviceId === bus.id)?.attributes.driverUniqueId).toBe('qr-joao');
    caraOnB.close();
  });
});
