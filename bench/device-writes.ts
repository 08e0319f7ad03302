// Device writes through the API while the fleet moves (session 46): how long the administrator waits for
// `POST /api/devices` (a device created) and `PUT /api/devices/{id}` (renamed), one after another, on a server whose
// demo simulator moves 100 or 10,000 vehicles (about 1,000 positions a second). Each write tells the live cache
// (server/src/live/cache.ts), which the answer waits for (its device goes to the open sockets). SQLite always;
// PostgreSQL too when RASTRO_PG_URL is set (a schema of its own per run, dropped after). Run it on two trees in
// turn to compare (the previous commit in a worktree).
// Run: node --import tsx bench/device-writes.ts  (BENCH_FLEETS=100,10000 BENCH_WRITES=30)
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startBenchServer } from './server.ts';

const FLEETS = (process.env.BENCH_FLEETS ?? '100,10000').split(',').map(Number);
const WRITES = Number(process.env.BENCH_WRITES ?? 30);
const PG_URL = process.env.RASTRO_PG_URL;

interface Timing {
  median: number;
  p90: number;
}

const timing = (ms: number[]): Timing => {
  const s = [...ms].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p90: s[Math.min(s.length - 1, Math.floor(s.length * 0.9))] };
};

async function timed(fn: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await fn();
  await res.text();
  if (!res.ok) throw new Error(`answered ${res.status}`);
  return performance.now() - t0;
}

/** Creates WRITES devices, then renames each: the time of every answer. */
async function writes(url: string): Promise<{ create: Timing; edit: Timing }> {
  const login = await fetch(`${url}/api/session`, {
    method: 'POST',
    body: new URLSearchParams({ email: 'admin', password: 'admin' }),
  });
  const headers = {
    cookie: (login.headers.get('set-cookie') ?? '').split(';')[0],
    'content-type': 'application/json',
  };
  const created: Array<Record<string, unknown>> = [];
  const create: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const body = JSON.stringify({ name: `Bench ${i}`, uniqueId: `bench-write-${process.pid}-${i}` });
    create.push(
      await timed(async () => {
        const res = await fetch(`${url}/api/devices`, { method: 'POST', headers, body });
        if (res.ok) created.push((await res.clone().json()) as Record<string, unknown>);
        return res;
      }),
    );
  }
  const edit: number[] = [];
  for (const d of created) {
    const body = JSON.stringify({ ...d, name: `${String(d.name)} renamed` });
    edit.push(
      await timed(() => fetch(`${url}/api/devices/${String(d.id)}`, { method: 'PUT', headers, body })),
    );
  }
  return { create: timing(create), edit: timing(edit) };
}

/** A server of `devices` moving vehicles on the store, its writes timed. */
async function run(store: 'SQLite' | 'PostgreSQL', devices: number) {
  let env: Record<string, string> = {};
  let drop = async () => undefined as unknown;
  if (store === 'PostgreSQL') {
    const schema = `bench_writes_${process.pid}_${devices}`;
    const admin = postgres(PG_URL!, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`CREATE SCHEMA ${schema}`);
    const url = new URL(PG_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env = { DATABASE_URL: url.toString() };
    drop = async () => {
      await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    };
  }
  const server = await startBenchServer({ name: `writes-${devices}`, devices, env });
  try {
    return await writes(server.url);
  } finally {
    await server.stop();
    await drop();
  }
}

const rows: string[] = [];
for (const store of PG_URL ? (['SQLite', 'PostgreSQL'] as const) : (['SQLite'] as const))
  for (const devices of FLEETS) {
    const r = await run(store, devices);
    const line =
      `| ${store} | ${devices} | ${r.create.median.toFixed(1)} | ${r.create.p90.toFixed(1)} | ` +
      `${r.edit.median.toFixed(1)} | ${r.edit.p90.toFixed(1)} |`;
    console.log(line);
    rows.push(line);
  }

const out = [
  '## Device writes while the fleet moves (`bench/device-writes.ts`)',
  '',
  `${new Date().toISOString().slice(0, 10)} · load ${loadavg()[0].toFixed(1)} · ${WRITES} devices created, then ` +
    'each renamed, one after another,',
  'as the administrator; the demo simulator moving the fleet meanwhile',
  '',
  '| store | vehicles | create median ms | create p90 ms | rename median ms | rename p90 ms |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows,
  '',
].join('\n');
writeFileSync(join(import.meta.dirname, 'results', 'device-writes.md'), out);
console.log(out);
