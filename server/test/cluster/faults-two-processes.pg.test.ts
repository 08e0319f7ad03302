// Two server processes on one PostgreSQL database through database faults, during an OsmAnd flood on both (issue
// #30). Connections terminated every 2 s (pg_terminate_backend): both processes answer within 2 s afterwards, every
// position acknowledged is stored, none twice. PostgreSQL unreachable for 6 s (a proxy between the processes and
// the database refuses connections, as a stopped server does; the test cluster itself is shared with other tests):
// /api/health answers under 1 s throughout, positions are answered 503 meanwhile and taken again within 5 s of
// its return. Trackers here send a refused position again, as real ones do.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { startPgProxy, type PgProxy } from '../support/pgProxy.ts';
import { startServerProcess } from '../support/serverProcess.ts';

const AUTH = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  base: string;
  osmand: string;
  exited: Promise<number | null>;
}

interface Sent {
  uniqueId: string;
  fixTime: number;
  status: number;
  at: number;
  ms: number;
}

const key = `cluster-faults-${randomUUID()}`;
const appName = `rastro-faults-${key.slice(-12)}`;
const dataDir = mkdtempSync(join(tmpdir(), 'rastro-cluster-faults-'));
let proxy: PgProxy;
let schemaUrl: string;
let a: Proc;
let b: Proc;
const devices: Array<{ id: number; uniqueId: string }> = [];

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const s = await startServerProcess({ osmand: true, readyTimeoutMs: 40_000, output: 'ignore', env });
  return { child: s.child, base: s.url, osmand: s.osmandUrl!, exited: s.exited };
}

/** A request that gives up after `ms` (status 0: no answer in time). */
async function timed(url: string, init: RequestInit, ms: number): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
    await res.arrayBuffer();
    return { status: res.status, ms: Date.now() - started };
  } catch {
    return { status: 0, ms: Date.now() - started };
  }
}

let seq = 0;
const base = Math.floor(Date.UTC(2026, 0, 1) / 1000);

/** 16 trackers reporting to both processes' OsmAnd ports; a refused position is sent again until taken. */
function flood(): { sent: Sent[]; stop(): Promise<void> } {
  const sent: Sent[] = [];
  let stopped = false;
  const tracker = async (n: number) => {
    const d = devices[n % devices.length];
    const target = n % 2 === 0 ? a.osmand : b.osmand;
    let fixTime = base + seq++;
    while (!stopped) {
      const r = await timed(
        `${target}/?id=${d.uniqueId}&lat=-23.5&lon=-46.6&timestamp=${fixTime}`,
        { method: 'POST' },
        15_000,
      );
      sent.push({ uniqueId: d.uniqueId, fixTime, status: r.status, at: Date.now(), ms: r.ms });
      if (r.status === 200) fixTime = base + seq++;
      await wait(r.status === 200 ? 5 : 50);
    }
  };
  const all = Array.from({ length: 16 }, (_, n) => tracker(n));
  return {
    sent,
    stop: async () => {
      stopped = true;
      await Promise.all(all);
    },
  };
}

async function storedKeys(): Promise<string[]> {
  const client = postgres(schemaUrl, { max: 1, onnotice: () => undefined });
  try {
    const rows = await client.unsafe(
      'SELECT d."uniqueId" AS u, p."fixTime" AS f FROM positions p JOIN devices d ON d.id = p."deviceId"',
    );
    return (rows as unknown as Array<{ u: string; f: string }>).map(
      (r) => `${r.u}/${Date.parse(r.f) / 1000}`,
    );
  } finally {
    await client.end();
  }
}

/** Every position answered 200 is stored, none twice, and only 200 or 503 was answered (never a hang). */
async function expectAcknowledgedStored(sent: Sent[]): Promise<void> {
  expect(sent.filter((s) => s.status !== 200 && s.status !== 503)).toEqual([]);
  const stored = await storedKeys();
  expect(new Set(stored).size).toBe(stored.length);
  const storedSet = new Set(stored);
  const missing = sent.filter((s) => s.status === 200 && !storedSet.has(`${s.uniqueId}/${s.fixTime}`));
  expect(missing).toEqual([]);
}

beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('these tests need PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  schemaUrl = (await storeEnv(key)).DATABASE_URL!;
  const named = new URL(schemaUrl);
  named.searchParams.set('application_name', appName); // the connections pg_terminate_backend ends
  proxy = await startPgProxy(named.toString());
  const env = { DATABASE_URL: proxy.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  a = await startProcess(env); // the leader: seeds the administrator
  b = await startProcess(env);
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${a.base}/api/devices`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Fault ${i}`, uniqueId: `fault-${i}-${key.slice(-6)}` }),
    });
    expect(res.status).toBe(200);
    devices.push((await res.json()) as { id: number; uniqueId: string });
  }
}, 120_000);

afterAll(async () => {
  for (const p of [a, b]) p?.child.kill('SIGKILL');
  await Promise.all([a?.exited, b?.exited]);
  proxy?.close();
  rmSync(dataDir, { recursive: true, force: true });
  await dropStore(key);
});

describe('two processes through database faults', () => {
  it('connections terminated every 2 s during a flood: both answer within 2 s after, acknowledged = stored, nothing twice', async () => {
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => undefined });
    const f = flood();
    let terminated = 0;
    try {
      for (let i = 0; i < 5; i++) {
        await wait(2_000);
        const rows = await admin.unsafe(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [appName],
        );
        terminated += (rows[0] as unknown as { n: number }).n;
      }
      await wait(500);
    } finally {
      await f.stop();
      await admin.end();
    }
    expect(terminated).toBeGreaterThanOrEqual(10); // both processes' connections, five times
    for (const p of [a, b]) {
      const api = await timed(`${p.base}/api/devices`, { headers: AUTH }, 2_000);
      expect(api.status).toBe(200);
      const d = devices[0];
      const report = await timed(
        `${p.osmand}/?id=${d.uniqueId}&lat=-23.5&lon=-46.6&timestamp=${base + seq++}`,
        { method: 'POST' },
        2_000,
      );
      expect(report.status).toBe(200);
    }
    expect(f.sent.filter((s) => s.status === 200).length).toBeGreaterThan(100);
    await expectAcknowledgedStored(f.sent); // no request unanswered (0), only 200 and 503
  }, 60_000);

  it('PostgreSQL unreachable for 6 s during a flood: health under 1 s throughout, 503 meanwhile, taken again within 5 s', async () => {
    const health: Array<{ status: number; ms: number }> = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        for (const p of [a, b]) health.push(await timed(`${p.base}/api/health`, {}, 3_000));
        await wait(200);
      }
    })();
    const f = flood();
    await wait(1_000);
    await proxy.command('down');
    const downAt = Date.now();
    await wait(6_000);
    await proxy.command('up');
    const upAt = Date.now();
    // each process takes a position again within 5 s of the database's return
    const backAfter: number[] = [];
    for (const p of [a, b]) {
      const d = devices[1];
      for (;;) {
        const r = await timed(
          `${p.osmand}/?id=${d.uniqueId}&lat=-23.5&lon=-46.6&timestamp=${base + seq++}`,
          { method: 'POST' },
          5_000,
        );
        if (r.status === 200 || Date.now() - upAt > 10_000) {
          backAfter.push(Date.now() - upAt);
          break;
        }
        await wait(100);
      }
    }
    await wait(500);
    await f.stop();
    polling = false;
    await poll;

    expect(Math.max(...health.map((h) => h.ms))).toBeLessThan(1_000);
    expect(health.every((h) => h.status === 200 || h.status === 503)).toBe(true);
    expect(health.some((h) => h.status === 503)).toBe(true);
    const whileDown = f.sent.filter((s) => s.at > downAt + 500 && s.at < upAt);
    expect(whileDown.length).toBeGreaterThan(0);
    expect(new Set(whileDown.map((s) => s.status))).toEqual(new Set([503]));
    expect(Math.max(...backAfter)).toBeLessThan(5_000);
    await expectAcknowledgedStored(f.sent);
  }, 60_000);
});
