// Two server processes on one PostgreSQL database behave as one server (issue #12, db/cluster.ts): a position
// reported to A's OsmAnd port reaches a socket client of B within a second, a device created on B is listed by A,
// a session made on B works on A, a device reporting only to B is swept by the leader A,
// the billing job runs in one of them, and when that one dies the other takes the background jobs over.
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

interface Proc {
  child: ChildProcess;
  base: string;
  osmand: string;
  log: string[];
  exited: Promise<number | null>;
}

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const s = await startServerProcess({
    osmand: true,
    readyTimeoutMs: 40_000,
    env: { LOG_LEVEL: 'debug', LOG_FORMAT: 'json', ...env },
  });
  return { child: s.child, base: s.url, osmand: s.osmandUrl!, log: s.output, exited: s.exited };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const billingRuns = (p: Proc) =>
  p.log
    .join('')
    .split('\n')
    .filter((l) => l.includes('"billing job ran"')).length;

describe('two server processes on one PostgreSQL database', () => {
  const key = `cluster-${randomUUID()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'rastro-cluster-'));
  let a: Proc;
  let b: Proc;
  beforeAll(async () => {
    if (!TEST_DATABASE_URL)
      throw new Error('these tests need PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
    const env = { ...(await storeEnv(key)), DATA_DIR: dataDir, STATUS_TIMEOUT: '3' } as Record<
      string,
      string
    >;
    a = await startProcess(env); // the first one takes the leader lock, seeds the administrator
    b = await startProcess(env);
  }, 60_000);
  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGKILL');
    await Promise.all([a?.exited, b?.exited]);
    rmSync(dataDir, { recursive: true, force: true });
    await dropStore(key);
  });

  it('a device created on B is listed by A; a position reported to A reaches a socket client of B within a second', async () => {
    const created = await fetch(`${b.base}/api/devices`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shared', uniqueId: 'cluster-1' }),
    });
    expect(created.status).toBe(200);
    const device = (await created.json()) as { id: number };
    const listed = (await (await fetch(`${a.base}/api/devices`, { headers: AUTH })).json()) as Array<{
      id: number;
    }>;
    expect(listed.map((d) => d.id)).toContain(device.id);

    const login = await fetch(`${b.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.base },
      body: 'email=admin&password=admin',
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    // the session made on B works on A: sessions live in the database
    const onA = await fetch(`${a.base}/api/session`, { headers: { cookie } });
    expect(onA.status).toBe(200);
    expect(((await onA.json()) as { email: string }).email).toBe('admin');
    const ws = new WebSocket(`${b.base.replace('http', 'ws')}/api/socket`, {
      headers: { cookie, origin: b.base },
    });
    const received: Array<{ positions?: Array<{ deviceId: number; latitude: number }> }> = [];
    ws.on('message', (m: Buffer) => received.push(JSON.parse(m.toString()) as (typeof received)[number]));
    await new Promise<void>((ok, fail) => {
      ws.once('open', () => ok());
      ws.once('error', fail);
    });
    await new Promise((r) => setTimeout(r, 300)); // the socket's first snapshot
    const sent = Date.now();
    const res = await fetch(
      `${a.osmand}/?id=cluster-1&lat=-23.5&lon=-46.6&timestamp=${Math.floor(sent / 1000)}`,
      {
        method: 'POST',
      },
    );
    expect(res.status).toBe(200);
    const position = await until(
      'position on B',
      async () =>
        received
          .flatMap((m) => m.positions ?? [])
          .find((p) => p.deviceId === device.id && p.latitude === -23.5),
      1000,
    );
    expect(position.deviceId).toBe(device.id);
    ws.close();
  });

  it('a device reporting only to B is swept by A, the leader: unknown after STATUS_TIMEOUT (3 s), on both', async () => {
    const created = await fetch(`${b.base}/api/devices`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Quiet', uniqueId: 'cluster-2' }),
    });
    const device = (await created.json()) as { id: number };
    const at = Math.floor(Date.now() / 1000);
    expect(
      (await fetch(`${b.osmand}/?id=cluster-2&lat=-23.6&lon=-46.7&timestamp=${at}`, { method: 'POST' }))
        .status,
    ).toBe(200);
    const statusOn = async (p: Proc) =>
      (
        (await (await fetch(`${p.base}/api/devices?id=${device.id}`, { headers: AUTH })).json()) as Array<{
          status: string;
        }>
      )[0]?.status;
    expect(
      await until('online on A', async () => ((await statusOn(a)) === 'online' ? true : undefined), 1000),
    ).toBe(true);
    await until('unknown on A', async () => ((await statusOn(a)) === 'unknown' ? true : undefined), 8000);
    await until('unknown on B', async () => ((await statusOn(b)) === 'unknown' ? true : undefined), 1000);
  });

  it('the billing job runs in one process; when it dies, the other takes the jobs over', async () => {
    const runs = await until('a billing run', async () => billingRuns(a) + billingRuns(b) || undefined, 5000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(billingRuns(a) + billingRuns(b)).toBe(runs);
    expect(runs).toBe(1);
    expect(billingRuns(a)).toBe(1); // A started first and leads

    a.child.kill('SIGKILL');
    await a.exited;
    // B takes the leader lock once A's connection is gone, and its sweep, reports, billing now run there
    const health = await until(
      'B leads',
      async () => {
        const h = (await (await fetch(`${b.base}/api/server-health`, { headers: AUTH })).json()) as {
          cluster?: { leader: boolean };
        };
        return h.cluster?.leader ? h : undefined;
      },
      10_000,
    );
    expect(health.cluster?.leader).toBe(true);
  });
});
