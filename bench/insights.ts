// Fleet insights benchmark (embedded mode, issue #14): the dashboard (GET /{ns}/dashboard) and the driver and
// vehicle scores (GET /{ns}/scores) for 100 devices × 30 days. History comes from the demo fleet's vehicle model, written straight into SQLite
// with the motion events the live pipeline would store; the hours of activity are then filled by the same code a
// store upgraded from an older version runs at start (rebuildActivity), which is timed too.
// Bounded: BENCH_DEVICES (100), BENCH_DAYS (30); each request runs 5 times, the median is reported.
// Run: node --import tsx bench/insights.ts   → writes bench/results/insights.md
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { haversine, kmhToKnots } from '@rastro/domain';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { rebuildActivity } from '../server/src/live/activity.ts';
import { createMotionTracker } from '../server/src/live/motion.ts';
import { catalogEntry } from '../server/src/live/simulator/catalog.ts';
import { Vehicle } from '../server/src/live/simulator/vehicle.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const STEP_MS = 60_000;
const PARKED_EVERY_MS = 600_000;
const RUNS = 5;
const DRIVERS = 20;
const LIMIT_KN = kmhToKnots(60);

const here = import.meta.dirname;
const dir = mkdtempSync(join(tmpdir(), 'rastro-bench-insights-'));
const t0 = performance.now();

const config = loadConfig({ DATA_DIR: dir, SIM_DEVICES: '0', OSMAND_PORT: '0', LOG_LEVEL: 'silent' });
const { app, ctx } = await buildApp(config);
await app.ready();
const sql = ctx.store.sql;
const admin = sql.prepare('SELECT id FROM users WHERE administrator = 1 ORDER BY id LIMIT 1').get() as {
  id: number;
};
const loginRes = await app.inject({
  method: 'POST',
  url: '/api/session',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ email: config.adminEmail, password: config.adminPassword }).toString(),
});
const auth = { cookie: String(loginRes.headers['set-cookie']).split(';')[0], accept: 'application/json' };

const addDevice = sql.prepare(
  'INSERT INTO devices (name, uniqueId, category, attributes) VALUES (?, ?, ?, ?)',
);
const link = sql.prepare(
  "INSERT INTO links (ownerType, ownerId, propertyType, propertyId) VALUES ('user', ?, 'device', ?)",
);
const addDriver = sql.prepare('INSERT INTO drivers (name, uniqueId, attributes) VALUES (?, ?, ?)');
const addPosition = sql.prepare(
  `INSERT INTO positions (deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude, altitude,
     speed, course, accuracy, attributes)
   VALUES (?, 'osmand', ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)`,
);
const addEvent = sql.prepare(
  'INSERT INTO events (type, eventTime, deviceId, positionId, attributes) VALUES (?, ?, ?, ?, ?)',
);

// ---- history -----------------------------------------------------------------------------------------------
const end = Math.floor(Date.now() / 60_000) * 60_000;
const start = end - DAYS * 86_400_000;
const drivers = Array.from({ length: DRIVERS }, (_, i) => `BENCH-D${i + 1}`);
for (const d of drivers) addDriver.run(`Motorista ${d}`, d, '{}');
let positions = 0;
let events = 0;
const deviceIds: number[] = [];
const limits = new Map<number, number>();
for (let n = 1; n <= DEVICES; n++) {
  const entry = { ...catalogEntry(n, 7, 'rastro'), behaviour: 'normal' as const };
  const limited = n % 2 === 0;
  const id = Number(
    addDevice.run(
      entry.name,
      `bench-${n}`,
      entry.category,
      JSON.stringify(limited ? { speedLimit: LIMIT_KN } : {}),
    ).lastInsertRowid,
  );
  if (limited) limits.set(id, LIMIT_KN);
  link.run(admin.id, id);
  deviceIds.push(id);
  const v = new Vehicle(entry, 7, [drivers[n % DRIVERS], drivers[(n + 7) % DRIVERS]]);
  const tracker = createMotionTracker<{ latitude: number; longitude: number; fixTime: number; id: number }>();
  let total = 0;
  let over = false;
  let prev: { latitude: number; longitude: number } | null = null;
  sql.transaction(() => {
    for (let t = start; t < end; t += STEP_MS) {
      v.step(t, STEP_MS / 1000);
      if (!v.due(t, PARKED_EVERY_MS)) continue;
      const r = v.report(t);
      const step = prev ? haversine(prev.latitude, prev.longitude, r.latitude, r.longitude) : 0;
      total += step;
      const iso = new Date(t).toISOString();
      const attrs = { ...r.attributes, distance: step, totalDistance: total, motion: r.speed > 0.01 };
      const pid = Number(
        addPosition.run(
          id,
          iso,
          iso,
          iso,
          r.latitude,
          r.longitude,
          r.altitude,
          r.speed,
          r.course,
          r.accuracy,
          JSON.stringify(attrs),
        ).lastInsertRowid,
      );
      positions++;
      for (const e of tracker.update({ latitude: r.latitude, longitude: r.longitude, fixTime: t, id: pid })) {
        addEvent.run(e.type, new Date(e.position.fixTime).toISOString(), id, e.position.id, '{}');
        events++;
      }
      const isOver = limited && r.speed > LIMIT_KN;
      if (isOver && !over) {
        addEvent.run('deviceOverspeed', iso, id, pid, '{}');
        events++;
      }
      over = isOver;
      if (typeof r.attributes.alarm === 'string') {
        addEvent.run('alarm', iso, id, pid, JSON.stringify({ alarm: r.attributes.alarm }));
        events++;
      }
      prev = { latitude: r.latitude, longitude: r.longitude };
    }
  })();
}
ctx.bus.emit('permissions');
const setupSeconds = (performance.now() - t0) / 1000;

// ---- the hours of activity ---------------------------------------------------------------------------------
sql.prepare('DELETE FROM activity').run();
const r0 = performance.now();
const read = await rebuildActivity(sql, (id) => limits.get(id) ?? 0);
const rebuildMs = performance.now() - r0;
const hourRows = (sql.prepare('SELECT COUNT(*) AS n FROM activity').get() as { n: number }).n;
console.log(`rebuilt ${hourRows} hour rows from ${read} positions in ${rebuildMs.toFixed(0)} ms`);

// ---- measurements ------------------------------------------------------------------------------------------
interface Row {
  name: string;
  median: number;
  bytes: number;
}
const rows: Row[] = [];
const iso = (ms: number) => new Date(ms).toISOString();

async function measure(name: string, url: string): Promise<number> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const a = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: auth });
    if (res.statusCode !== 200) throw new Error(`${name}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
    times.push(performance.now() - a);
    bytes = res.body.length;
  }
  times.sort((x, y) => x - y);
  const median = times[Math.floor(times.length / 2)];
  rows.push({ name, median, bytes });
  console.log(`${name}: ${times.map((t) => t.toFixed(0)).join(' / ')} ms`);
  return median;
}

const period = `from=${iso(start)}&to=${iso(end)}`;
const dashboard = await measure(
  `dashboard, ${DEVICES} devices × ${DAYS} days (and the ${DAYS} days before)`,
  `/${config.ns}/dashboard?${period}`,
);
await measure(
  `dashboard, 1 device × ${DAYS} days`,
  `/${config.ns}/dashboard?deviceId=${deviceIds[0]}&${period}`,
);
const scores = await measure(
  `driver scores, ${DEVICES} devices × ${DAYS} days`,
  `/${config.ns}/scores?by=driver&${period}`,
);
await measure(
  `vehicle scores, ${DEVICES} devices × ${DAYS} days`,
  `/${config.ns}/scores?by=device&${period}`,
);
await app.close();
rmSync(dir, { recursive: true, force: true });

const md = [
  '## Fleet insights (`bench/insights.ts`)',
  '',
  `${DEVICES} devices with ${DAYS} days of history from the demo fleet's vehicle model (a report a minute while the`,
  `engine runs, every 10 minutes parked; half the vehicles with a 60 km/h limit; ${DRIVERS} drivers):`,
  `${positions.toLocaleString('en-US')} positions and ${events.toLocaleString('en-US')} events in a SQLite file (WAL).`,
  `Requests through \`app.inject\` as the administrator, median of ${RUNS} runs. Machine: 2 cores, Node`,
  `${process.version}, load average ${loadavg()[0].toFixed(1)} at the end. Setup ${setupSeconds.toFixed(1)} s.`,
  '',
  '| request | median | response |',
  '|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.median.toFixed(0)} ms | ${(r.bytes / 1e3).toFixed(1)} kB |`),
  '',
  `The dashboard and the scores sum ${hourRows.toLocaleString('en-US')} hours of activity (one row per device, hour`,
  "and driver, kept up to date by ingestion) in SQLite, never the positions: both answer far under the issue's",
  'one second. Summing the positions instead is what filling the hours of activity does (once, for a store',
  `upgraded from an older version): ${read.toLocaleString('en-US')} positions in ${(rebuildMs / 1000).toFixed(1)} s`,
  `(${((rebuildMs * 1000) / Math.max(1, read)).toFixed(1)} µs per position), ${(rebuildMs / dashboard).toFixed(0)} times the dashboard's`,
  `answer and ${(rebuildMs / scores).toFixed(0)} times the driver scores'.`,
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'insights.md'), md + '\n');
console.log(`\nwrote bench/results/insights.md (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
