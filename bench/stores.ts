// Ingestion on each store, in one run on the same machine (issues #12, #30): OsmAnd positions over HTTP into
// (1) one process on SQLite, (2) one process on PostgreSQL, (3) two processes on one PostgreSQL database, the load
// split between them. The servers are real processes started from the sources; the load generator runs here.
// Each run counts the positions acknowledged (200) and then those stored, which must be equal. During the flood the
// administrator asks `GET /api/devices` every ~50 ms (session cookie; both processes in turn with two): the API's
// latency under load. The setups alternate (SQLite, PG 1, PG 2, then again: BENCH_ROUNDS rounds) so that the ratios
// to SQLite come from one run on a machine whose load changes; the load average is printed with them.
// PostgreSQL: RASTRO_PG_URL, or a throwaway cluster (scripts/pg-cluster.sh).
// Run: node --import tsx bench/stores.ts   → writes bench/results/stores.md
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { startServerProcess, type ServerProcess } from '../server/test/support/serverProcess.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONCURRENCY = 64;
/** BENCH_THREAD_CPU=1: CPU-seconds over the flood per server thread and PostgreSQL backend (from /proc, Linux). */
const THREAD_CPU = process.env.BENCH_THREAD_CPU === '1';
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS = 100;
/** Pause between two API probes during the flood. */
const PROBE_MS = 50;
const root = resolve(import.meta.dirname, '..');

/** A server process of the run, with the port of its web API and of its OsmAnd listener. */
interface Proc {
  server: ServerProcess;
  web: number;
  osmand: number;
}

async function startServer(env: Record<string, string>): Promise<Proc> {
  // BENCH_NODE_OPTIONS: Node options for the servers only (such as `--import` of a profiling hook)
  const options = process.env.BENCH_NODE_OPTIONS;
  // BENCH_POOL_SIZE: the servers' DATABASE_POOL_SIZE (PostgreSQL's pool: the ingestion's writes and the API's reads)
  const pool = process.env.BENCH_POOL_SIZE;
  const server = await startServerProcess({
    dataDir: env.DATA_DIR,
    osmand: true,
    output: 'inherit',
    env: {
      ...env,
      ...(options ? { NODE_OPTIONS: options } : {}),
      ...(pool ? { DATABASE_POOL_SIZE: pool } : {}),
    },
  });
  return { server, web: server.port, osmand: Number(new URL(server.osmandUrl!).port) };
}

async function stop(p: Proc): Promise<void> {
  await p.server.stop();
}

/** The administrator's session cookie on a process (as the web app holds it). */
async function login(p: Proc): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${p.web}/api/session`, {
    method: 'POST',
    body: new URLSearchParams({ email: 'admin', password: 'admin' }),
  });
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

async function createDevices(p: Proc, cookie: string): Promise<string[]> {
  const ids = Array.from({ length: DEVICES }, (_, i) => `store-${i}`);
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(
      ids.slice(i, i + 50).map(async (u) => {
        const res = await fetch(`http://127.0.0.1:${p.web}/api/devices`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ name: u, uniqueId: u }),
        });
        if (!res.ok) throw new Error(`creating device ${u} answered ${res.status}`);
      }),
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

/** `GET /api/devices` as the administrator every PROBE_MS until `done` (the processes in turn): ms each. */
async function probe(targets: Proc[], cookies: string[], done: () => boolean): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; !done(); i++) {
    const k = i % targets.length;
    const t0 = performance.now();
    const status = await new Promise<number>((ok) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: targets[k].web,
          path: '/api/devices',
          headers: { cookie: cookies[k] },
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => ok(res.statusCode ?? 0));
        },
      );
      req.on('error', () => ok(0));
      req.end();
    });
    const ms = performance.now() - t0;
    if (status !== 200) throw new Error(`GET /api/devices answered ${status} during the flood`);
    times.push(ms);
    await new Promise((r) => setTimeout(r, Math.max(0, PROBE_MS - ms)));
  }
  agent.destroy();
  return times;
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

/** CPU ticks of each thread of a process (tid → ticks), 0 entries once it ended. */
function threadTicks(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      out.set(Number(tid), processTicks(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** utime + stime of a /proc stat file (fields 14 and 15; the command name may hold spaces). */
function processTicks(file: string): number {
  const f = readFileSync(file, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]);
}

/** The PostgreSQL backends serving the server processes (their application_name starts with rastro). */
async function backendPids(url: string): Promise<number[]> {
  const c = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const rows = await c.unsafe(
      "SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'rastro%' AND pid <> pg_backend_pid()",
    );
    return rows.map((r) => Number((r as unknown as { pid: number }).pid));
  } finally {
    await c.end();
  }
}

interface CpuSnapshot {
  threads: Array<Map<number, number>>;
  backends: Map<number, number>;
}

async function cpuSnapshot(all: Proc[], url: string | undefined, known: number[] = []): Promise<CpuSnapshot> {
  const threads = all.map((p) => threadTicks(p.server.child.pid!));
  const backends = new Map<number, number>();
  for (const pid of new Set([...known, ...(url ? await backendPids(url) : [])])) {
    try {
      backends.set(pid, processTicks(`/proc/${pid}/stat`));
    } catch {
      // a backend that ended
    }
  }
  return { threads, backends };
}

/** CPU-seconds over the flood: the main threads, the busiest other thread of each process, the rest, backends. */
interface Cpu {
  main: number;
  busiest: number;
  others: number;
  backends: number;
}

function cpuSpent(all: Proc[], before: CpuSnapshot, after: CpuSnapshot): Cpu {
  const cpu: Cpu = { main: 0, busiest: 0, others: 0, backends: 0 };
  all.forEach((p, i) => {
    const spent = [...after.threads[i]].map(([tid, t]) => ({
      tid,
      s: (t - (before.threads[i].get(tid) ?? 0)) / TICKS,
    }));
    const others = spent.filter((x) => x.tid !== p.server.child.pid).map((x) => x.s);
    cpu.main += spent.find((x) => x.tid === p.server.child.pid)?.s ?? 0;
    const top = Math.max(0, ...others);
    cpu.busiest += top;
    cpu.others += others.reduce((a, b) => a + b, 0) - top;
  });
  for (const [pid, t] of after.backends) cpu.backends += (t - (before.backends.get(pid) ?? 0)) / TICKS;
  return cpu;
}

interface Row {
  cpu?: Cpu;
  setup: string;
  round: number;
  acknowledged: number;
  stored: number;
  seconds: number;
  /** `GET /api/devices` during the flood, ms. */
  api: number[];
  load: number;
}

async function run(
  setup: string,
  round: number,
  processes: number,
  env: Record<string, string>,
): Promise<Row> {
  const first = await startServer(env);
  const others = [];
  for (let i = 1; i < processes; i++) others.push(await startServer(env));
  const all = [first, ...others];
  try {
    // a session, not Basic authentication: each Basic request hashes the password (scrypt)
    const cookies = await Promise.all(all.map(login));
    const ids = await createDevices(first, cookies[0]);
    await new Promise((r) => setTimeout(r, 500));
    let finished = false;
    const before = THREAD_CPU ? await cpuSnapshot(all, env.DATABASE_URL) : undefined;
    const probing = probe(all, cookies, () => finished);
    const { acknowledged, seconds } = await load(all, ids).finally(() => (finished = true));
    const api = await probing;
    const after = before && (await cpuSnapshot(all, env.DATABASE_URL, [...before.backends.keys()]));
    const cpu = before && after ? cpuSpent(all, before, after) : undefined;
    for (const p of all) await stop(p);
    return {
      setup,
      round,
      acknowledged,
      stored: await stored(env),
      seconds,
      api,
      load: loadavg()[0],
      cpu,
    };
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

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

const SETUPS = ['SQLite, 1 process', 'PostgreSQL, 1 process', 'PostgreSQL, 2 processes'] as const;
const rows: Row[] = [];
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'rastro-bench-stores-'));
  dirs.push(d);
  return d;
};
const loadBefore = loadavg()[0];
try {
  await withPostgres(async (url) => {
    for (let round = 1; round <= ROUNDS; round++) {
      rows.push(await run(SETUPS[0], round, 1, { DATA_DIR: dataDir() }));
      const pg = (n: number) => ({ DATA_DIR: dataDir(), DATABASE_URL: '', schema: `bench${round}_${n}` });
      for (const [i, processes] of [1, 2].entries()) {
        const { schema, ...env } = pg(processes);
        env.DATABASE_URL = await freshSchema(url, schema);
        rows.push(await run(SETUPS[i + 1], round, processes, env));
      }
    }
  });
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

/** Each setup over its rounds: positions per second (all acknowledged over all seconds) and the API's p50/p99. */
const summary = SETUPS.map((setup) => {
  const of = rows.filter((r) => r.setup === setup);
  const api = of.flatMap((r) => r.api);
  return {
    setup,
    rate: of.reduce((s, r) => s + r.acknowledged, 0) / of.reduce((s, r) => s + r.seconds, 0),
    p50: percentile(api, 50),
    p99: percentile(api, 99),
    calls: api.length,
  };
});
const sqlite = summary[0];
const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const lines = [
  '# Ingestion per store',
  '',
  `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${cpus().length} cores · Node ${process.version} · ` +
    `${DEVICES} devices · ${POSITIONS} OsmAnd positions over HTTP per run, ${CONCURRENCY} in flight, each device's ` +
    `to one process · \`GET /api/devices\` as the administrator every ${PROBE_MS} ms during each run · ${ROUNDS} ` +
    'rounds, the setups alternating · servers, PostgreSQL and load generator on the same machine · load average ' +
    `${f1(loadBefore)} at the start, ${f1(loadavg()[0])} at the end (\`node --import tsx bench/stores.ts\`)`,
  '',
  '| setup | positions/s | vs SQLite | API p50 ms | API p99 ms | p99 vs SQLite | API calls |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...summary.map(
    (s) =>
      `| ${s.setup} | ${f0(s.rate)} | ${f2(s.rate / sqlite.rate)} | ${f1(s.p50)} | ${f1(s.p99)} | ` +
      `${f2(s.p99 / sqlite.p99)} | ${s.calls} |`,
  ),
  '',
  'Each run:',
  '',
  '| round | setup | acknowledged | stored | lost | seconds | positions/s | API p50 ms | API p99 ms | load |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.round} | ${r.setup} | ${r.acknowledged} | ${r.stored} | ${r.acknowledged - r.stored} | ` +
      `${f1(r.seconds)} | ${f0(r.acknowledged / r.seconds)} | ${f1(percentile(r.api, 50))} | ` +
      `${f1(percentile(r.api, 99))} | ${f1(r.load)} |`,
  ),
  '',
  ...(THREAD_CPU
    ? [
        'CPU-seconds per 20,000 positions over the flood (BENCH_THREAD_CPU=1, from /proc; "busiest other": each',
        "process's busiest thread after the main one, PostgreSQL's its database worker):",
        '',
        '| round | setup | main | busiest other | other threads | backends | total | main thread idle |',
        '|---:|---|---:|---:|---:|---:|---:|---:|',
        ...rows.map((r) => {
          const c = r.cpu!;
          const per = (s: number) => f2((s * 20_000) / r.acknowledged);
          const total = c.main + c.busiest + c.others + c.backends;
          const procs = r.setup.includes('2 processes') ? 2 : 1;
          const idle = `${f0(100 * Math.max(0, 1 - c.main / (procs * r.seconds)))} %`;
          return `| ${r.round} | ${r.setup} | ${per(c.main)} | ${per(c.busiest)} | ${per(c.others)} | ${per(c.backends)} | ${per(total)} | ${idle} |`;
        }),
        '',
      ]
    : []),
  "Targets (issue #30): PostgreSQL with one process at least 0.8 of SQLite's rate; the API's p99 during the flood",
  "on PostgreSQL at most 1.5 times SQLite's, with one process and with two. PostgreSQL flushes its log to disk at",
  'each COMMIT (full durability), which SQLite in WAL mode with synchronous=NORMAL does not. History of these',
  'figures: bench/RESULTS.md, "Ingestion per store".',
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'stores.md'), lines.join('\n'));
console.log(lines.join('\n'));
