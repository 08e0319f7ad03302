// Ingestion and socket fan-out benchmark (embedded mode): 10,000 devices, 10 socket clients, OsmAnd positions
// over HTTP on 127.0.0.1. The server runs on the main thread; the load generator, the socket clients and the
// REST probes run in one child process (so send and receive times share a clock). Bounded in count and time.
// Run: node --import tsx bench/ingest.ts   → writes bench/results/ingest.md
import { Agent, request } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fork } from 'node:child_process';
import WebSocket from 'ws';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const CLIENTS = 10;
const MAX_POSITIONS = Number(process.env.BENCH_POSITIONS ?? 60_000);
const PACED_RATE = 5_000; // positions per second in the paced phase
const PACED_SECONDS = 8;
const CONCURRENCY = 128;
const TIME_LIMIT_MS = 120_000;

interface Setup {
  osmandPort: number;
  webPort: number;
  tokens: string[];
  uniqueIds: string[];
}

interface Phase {
  name: string;
  sent: number;
  accepted: number;
  failed: number;
  seconds: number;
  delays: number[];
  received: number;
}

interface WorkerResult {
  phases: Phase[];
  devicesLatency: number[];
  positionsLatency: number[];
  socketMessages: number;
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');

// ---------------------------------------------------------------------------------------------------------
// worker: load generator + socket clients + REST probes
// ---------------------------------------------------------------------------------------------------------
async function runWorker(setup: Setup): Promise<WorkerResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const total = MAX_POSITIONS + PACED_RATE * PACED_SECONDS + 10;
  const sentAt = new Float64Array(total + 1);
  const seen = new Uint8Array(total + 1);
  let socketMessages = 0;
  let delays: number[] = [];
  let receivedAll = 0;

  // socket clients: client 0 sees every device, clients 1..9 a slice each
  const sockets: WebSocket[] = [];
  await Promise.all(
    setup.tokens.map(
      (token, i) =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(
            `ws://127.0.0.1:${setup.webPort}/api/socket?token=${encodeURIComponent(token)}`,
          );
          sockets.push(ws);
          let first = true;
          ws.on('message', (data) => {
            socketMessages++;
            if (first) {
              first = false;
              resolve();
              return;
            }
            if (i !== 0) return;
            const msg = JSON.parse(String(data)) as { positions?: Array<{ attributes: { seq?: number } }> };
            const now = performance.now();
            for (const p of msg.positions ?? []) {
              const seq = p.attributes.seq;
              if (typeof seq !== 'number' || seen[seq]) continue;
              seen[seq] = 1;
              receivedAll++;
              delays.push(now - sentAt[seq]);
            }
          });
          ws.once('error', reject);
        }),
    ),
  );

  const get = (path: string, token: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = request(
        {
          host: '127.0.0.1',
          port: setup.webPort,
          path,
          agent,
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(performance.now() - t0)
              : reject(new Error(`${path} ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  let seq = 0;
  const lat0 = -23.55;
  const lon0 = -46.63;
  const send = (): Promise<boolean> => {
    const s = ++seq;
    const d = (s - 1) % setup.uniqueIds.length;
    const round = Math.floor((s - 1) / setup.uniqueIds.length);
    const lat = lat0 + (d % 100) * 0.002 + round * 0.0003;
    const lon = lon0 + Math.floor(d / 100) * 0.002;
    const path =
      `/?id=${setup.uniqueIds[d]}&lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}&timestamp=${Date.now()}` +
      `&speed=${(20 + (s % 30)).toFixed(1)}&bearing=${s % 360}&batt=80&seq=${s}`;
    sentAt[s] = performance.now();
    return new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port: setup.osmandPort, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      });
      req.on('error', () => resolve(false));
      req.end();
    });
  };

  const waitDrain = async (expected: number) => {
    const until = performance.now() + 10_000;
    while (receivedAll < expected && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  };

  const phases: Phase[] = [];
  const deadline = performance.now() + TIME_LIMIT_MS;
  const mark = (name: string) => process.send?.({ mark: name });

  // phase 1: as fast as the server takes them (closed loop, CONCURRENCY in flight)
  {
    delays = [];
    const startSeq = seq;
    const startReceived = receivedAll;
    let accepted = 0;
    let failed = 0;
    mark('max:start');
    const t0 = performance.now();
    const lane = async () => {
      while (seq - startSeq < MAX_POSITIONS && performance.now() < deadline) {
        if (await send()) accepted++;
        else failed++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const seconds = (performance.now() - t0) / 1000;
    mark('max:end');
    await waitDrain(startReceived + accepted);
    phases.push({
      name: `max throughput (${CONCURRENCY} requests in flight)`,
      sent: seq - startSeq,
      accepted,
      failed,
      seconds,
      delays,
      received: receivedAll - startReceived,
    });
  }

  // phase 2: paced at PACED_RATE/s, with REST probes every second
  const devicesLatency: number[] = [];
  const positionsLatency: number[] = [];
  {
    delays = [];
    const startSeq = seq;
    const startReceived = receivedAll;
    let accepted = 0;
    let failed = 0;
    const target = PACED_RATE * PACED_SECONDS;
    mark('paced:start');
    const t0 = performance.now();
    let probing = true;
    const probe = (async () => {
      while (probing) {
        devicesLatency.push(await get('/api/devices', setup.tokens[0]));
        positionsLatency.push(await get('/api/positions', setup.tokens[0]));
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    const inflight = new Set<Promise<void>>();
    while (seq - startSeq < target && performance.now() < deadline) {
      const due = Math.floor(((performance.now() - t0) / 1000) * PACED_RATE);
      while (seq - startSeq < Math.min(due, target) && inflight.size < CONCURRENCY * 2) {
        const p: Promise<void> = send().then((ok) => {
          if (ok) accepted++;
          else failed++;
          inflight.delete(p);
        });
        inflight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inflight);
    const seconds = (performance.now() - t0) / 1000;
    mark('paced:end');
    probing = false;
    await probe;
    await waitDrain(startReceived + accepted);
    phases.push({
      name: `paced at ${PACED_RATE}/s`,
      sent: seq - startSeq,
      accepted,
      failed,
      seconds,
      delays,
      received: receivedAll - startReceived,
    });
  }
  for (const ws of sockets) ws.close();
  agent.destroy();
  return { phases, devicesLatency, positionsLatency, socketMessages };
}

const isWorker = process.argv.includes('--worker');
if (isWorker) {
  process.once('message', (setup: Setup) => {
    runWorker(setup).then(
      (r) => process.send!(r, () => process.exit(0)),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------------------
// main: the server
// ---------------------------------------------------------------------------------------------------------
async function main(): Promise<void> {
  const { loadConfig } = await import('../server/src/config.ts');
  const { buildApp } = await import('../server/src/app.ts');
  const { createSessionToken } = await import('../server/src/traccar/auth.ts');
  const { permissionsChanged } = await import('../server/src/traccar/access.ts');
  const { getLiveServices } = await import('../server/src/live/index.ts');
  const { startOsmAndServer } = await import('../server/src/live/osmand.ts');

  const dir = mkdtempSync(join(tmpdir(), 'rastro-bench-'));
  const config = loadConfig(
    { DATA_DIR: dir, SIM_DEVICES: '0', OSMAND_PORT: '0', LOG_LEVEL: 'silent' },
    { host: '127.0.0.1', port: 0, logLevel: 'silent', simDevices: 0, osmandPort: 0 },
  );
  const { app, ctx } = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const webPort = (app.server.address() as { port: number }).port;
  const { live, hub } = getLiveServices(ctx);
  const osmand = await startOsmAndServer(ctx, live, 0, '127.0.0.1');
  const osmandPort = (osmand.address() as { port: number }).port;

  // fixtures: one group with every device, 10 users (user 0 sees the group, users 1..9 a slice each)
  const db = ctx.store.sql;
  const uniqueIds: string[] = [];
  const tokens: string[] = [];
  const userIds: number[] = [];
  db.transaction(() => {
    const groupId = Number(db.prepare("INSERT INTO groups (name) VALUES ('Bench')").run().lastInsertRowid);
    const insDevice = db.prepare('INSERT INTO devices (name, uniqueId, groupId) VALUES (?, ?, ?)');
    const insUser = db.prepare('INSERT INTO users (name, email, deviceLimit) VALUES (?, ?, -1)');
    const insLink = db.prepare(
      'INSERT INTO links (ownerType, ownerId, propertyType, propertyId) VALUES (?, ?, ?, ?)',
    );
    const deviceIds: number[] = [];
    for (let i = 0; i < DEVICES; i++) {
      const uid = `bench-${String(i + 1).padStart(5, '0')}`;
      uniqueIds.push(uid);
      deviceIds.push(Number(insDevice.run(`Bench ${i + 1}`, uid, groupId).lastInsertRowid));
    }
    const slice = Math.ceil(DEVICES / (CLIENTS - 1));
    for (let u = 0; u < CLIENTS; u++) {
      const userId = Number(insUser.run(`Bench user ${u}`, `bench${u}@example.com`).lastInsertRowid);
      userIds.push(userId);
      if (u === 0) insLink.run('user', userId, 'group', groupId);
      else
        for (const d of deviceIds.slice((u - 1) * slice, u * slice)) insLink.run('user', userId, 'device', d);
    }
  })();
  // tokens are written asynchronously (issue #30), once their users are committed
  for (const userId of userIds)
    tokens.push(await createSessionToken(ctx, userId, new Date(Date.now() + 3_600_000)));
  permissionsChanged(ctx);
  live.invalidate();

  const started = performance.now();
  const worker = fork(new URL(import.meta.url).pathname, ['--worker'], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
  });
  worker.send({ osmandPort, webPort, tokens, uniqueIds } satisfies Setup);
  const cpuAt = new Map<string, { cpu: number; load: number }>();
  const result = await new Promise<WorkerResult>((resolve, reject) => {
    worker.on('message', (m: { mark?: string }) => {
      if (m.mark) {
        const u = process.cpuUsage();
        cpuAt.set(m.mark, { cpu: (u.user + u.system) / 1000, load: loadavg()[0] });
      } else resolve(m as WorkerResult);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
  });
  const elapsed = (performance.now() - started) / 1000;
  await live.settle(); // what is queued stored (flushNow is SQLite-only; settle works on both stores)
  const stored = (db.prepare('SELECT COUNT(*) AS n FROM positions').get() as { n: number }).n;
  const accepted = result.phases.reduce((s, p) => s + p.accepted, 0);

  const lines = [
    '## Ingestion and live fan-out (`bench/ingest.ts`)',
    '',
    `${DEVICES.toLocaleString('en')} devices, ${CLIENTS} socket clients (one sees every device, nine see a slice each),`,
    'OsmAnd `GET /?id=…&lat=…` requests over keep-alive HTTP on 127.0.0.1 from a child process; the server',
    `(SQLite file in WAL mode) on the main thread. Machine: ${cpus().length} cores, Node ${process.version}.`,
    '',
    '| phase | sent | accepted | failed | seconds | positions/s | server CPU per position | ⇒ positions/s per free core | socket delay median | p99 | lost on socket | load average |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...result.phases.map((p, i) => {
      const key = i === 0 ? 'max' : 'paced';
      const a = cpuAt.get(`${key}:start`);
      const b = cpuAt.get(`${key}:end`);
      const cpuPer = a && b ? ((b.cpu - a.cpu) * 1000) / p.accepted : NaN; // µs
      return (
        `| ${p.name} | ${p.sent} | ${p.accepted} | ${p.failed} | ${f(p.seconds, 1)} | ${f(p.accepted / p.seconds)} | ` +
        `${f(cpuPer)} µs | ${f(1e6 / cpuPer)} | ${f(pct(p.delays, 50))} ms | ${f(pct(p.delays, 99))} ms | ` +
        `${p.accepted - p.received} | ${f(b?.load ?? NaN, 1)} |`
      );
    }),
    '',
    `REST during the paced phase (user seeing all ${DEVICES} devices): ` +
      `\`GET /api/devices\` median ${f(pct(result.devicesLatency, 50))} ms, p99 ${f(pct(result.devicesLatency, 99))} ms ` +
      `(${result.devicesLatency.length} calls); \`GET /api/positions\` median ${f(pct(result.positionsLatency, 50))} ms, ` +
      `p99 ${f(pct(result.positionsLatency, 99))} ms (${result.positionsLatency.length} calls).`,
    '',
    `Positions accepted ${accepted}, stored ${stored}: **${accepted - stored} lost** in the store; ` +
      `socket messages received ${result.socketMessages} (server sent ${hub.sent}). Total run ${f(elapsed, 1)} s.`,
    'The socket batches per 100 ms tick, so the delay includes up to one tick by design. "Server CPU per position"',
    'is the server process CPU time (HTTP, decoding, processing, SQLite, socket fan-out, REST probes) divided by the',
    'positions of the phase; it does not depend on how busy the shared machine is, unlike the wall-clock rate.',
    'The load average column shows how many other processes competed for the 2 cores during the run. The paced',
    "phase's CPU also pays for the REST probes (each `GET /api/devices` lists every device).",
    '',
  ];
  // hand-written notes below the marker (comparisons, earlier figures) survive a re-run
  const out = join(import.meta.dirname, 'results', 'ingest.md');
  const MARK = '<!-- notes -->';
  const previous = existsSync(out) ? readFileSync(out, 'utf8') : '';
  if (previous.includes(MARK)) lines.push(previous.slice(previous.indexOf(MARK)));
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(out, lines.join('\n'));
  console.log(lines.join('\n'));

  osmand.closeAllConnections();
  await new Promise((r) => osmand.close(r));
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

if (!isWorker) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
