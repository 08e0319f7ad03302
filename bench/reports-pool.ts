// Reports on PostgreSQL (issue #30, session 22): how long a report over many devices takes (trips, one day of
// positions replayed), and how late a cheap request (GET /api/health, one due every 50 ms) is answered while it runs. Run on two trees in turn (before and after the read pool) to
// compare. Needs PostgreSQL: BENCH_DATABASE_URL (a database the bench may fill; a schema of its own is made and
// dropped). BENCH_DEVICES (100) devices with a day of positions a minute apart; RUNS (5) reports each.
// Run: BENCH_DATABASE_URL=postgres://… node --import tsx bench/reports-pool.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';

const BASE_URL = process.env.BENCH_DATABASE_URL;
if (!BASE_URL) throw new Error('BENCH_DATABASE_URL: a PostgreSQL database the bench may use');
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const RUNS = Number(process.env.RUNS ?? 5);
const DAY = '2026-02-01';

const schema = `bench_pool_${process.pid}`;
const admin = postgres(BASE_URL, { max: 1, onnotice: () => undefined });
await admin.unsafe(`CREATE SCHEMA ${schema}`);
const url = new URL(BASE_URL);
url.searchParams.set('options', `-c search_path=${schema}`);
const dir = mkdtempSync(join(tmpdir(), 'rastro-bench-pool-'));
const config = loadConfig({
  DATA_DIR: dir,
  SIM_DEVICES: '0',
  OSMAND_PORT: '0',
  LOG_LEVEL: 'silent',
  DATABASE_URL: url.toString(),
});
const { app } = await buildApp(config);
await app.ready();

const login = await app.inject({
  method: 'POST',
  url: '/api/session',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ email: config.adminEmail, password: config.adminPassword }).toString(),
});
const auth = { cookie: String(login.headers['set-cookie']).split(';')[0] };
// the devices through the API (the live cache knows them), then a day of positions a minute apart for each device,
// written in one statement
for (let i = 1; i <= DEVICES; i++)
  await app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: auth,
    payload: { name: `Bench ${i}`, uniqueId: `bench-${i}` },
  });
const fill = postgres(url.toString(), { max: 1, onnotice: () => undefined });
await fill.unsafe(
  `INSERT INTO positions ("deviceId", protocol, "serverTime", "deviceTime", "fixTime", valid, latitude, longitude,
     altitude, speed, course, accuracy, attributes)
   SELECT d.id, 'osmand', t, t, t, 1, -23.5 + m * 0.004, -46.6, 0,
     CASE WHEN (m / 30) % 2 = 0 THEN 15 ELSE 0 END, 0, 5, '{}'
   FROM devices d, generate_series(0, 1439) m,
     LATERAL (SELECT to_char(('${DAY}T00:00:00Z'::timestamptz + m * interval '1 minute') AT TIME ZONE 'UTC',
       'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t) x`,
);
await fill.end();

const ids = (await app.inject({ url: '/api/devices', headers: auth })).json<Array<{ id: number }>>();
const query = ids.map((d) => `deviceId=${d.id}`).join('&');
const trips = `/api/reports/trips?${query}&from=${DAY}T00:00:00.000Z&to=${DAY}T23:59:59.000Z`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const reportMs: number[] = [];
const healthMs: number[] = [];
let items = 0;
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  let done = false;
  const report = app.inject({ url: trips, headers: auth }).finally(() => (done = true));
  // while the report runs, a cheap request every 50 ms: the time from when it was due to its answer (a blocked
  // event loop sends it late and answers it late)
  while (!done) {
    const due = performance.now() + 50;
    await new Promise((r) => setTimeout(r, 50)); // sent even when the report ended meanwhile: it was due before
    const health = await app.inject({ url: '/api/health' });
    if (health.statusCode !== 200) throw new Error(`health ${health.statusCode}`);
    healthMs.push(performance.now() - due);
  }
  const res = await report;
  reportMs.push(performance.now() - start);
  if (res.statusCode !== 200) throw new Error(`report ${res.statusCode}`);
  items = res.json<unknown[]>().length;
  if (ids.length !== DEVICES) throw new Error(`${ids.length} devices`);
}
await app.close();
await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    devices: DEVICES,
    positions: DEVICES * 1440,
    trips: items,
    reportMedianMs: Math.round(median(reportMs)),
    reportMs: reportMs.map(Math.round),
    healthDuringReport: healthMs.length,
    healthMedianMs: Math.round(median(healthMs) * 10) / 10,
    healthMaxMs: Math.round(Math.max(...healthMs)),
    load: loadavg().map((x) => x.toFixed(2)),
  }),
);
