// OsmAnd ingestion while PostgreSQL connections break (issue #30): the server reaches PostgreSQL through a TCP proxy
// in another process that cuts every connection (as pg_terminate_backend, a failover or a network blip do) and
// once refuses connections for a while (PostgreSQL down). During a 96-way flood of positions on one server, whose
// trackers send a refused position again until it is taken: every position answered 200 is stored, every one not
// stored was answered 503, none is stored twice, no request hangs, /api/health answers 503 at once while the
// database is down, and ingestion works again afterwards. A position answered 503 may be stored when a cut lost
// its batch's COMMIT answer (the outcome is not waited for: live/batchPipeline.ts): its resend is then acknowledged
// without a second row, so in the end what is stored is exactly what was acknowledged.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, makeTestApp, type TestApp } from '../helpers/index.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { select } from '../support/testSql.ts';

// the proxy: stdin "cut" closes every connection, "down" closes them and refuses new ones, "up" accepts again
const PROXY = `
const net = require('node:net');
const [host, port] = [process.argv[1], Number(process.argv[2])];
let down = false;
const open = new Set();
const server = net.createServer((client) => {
  if (down) return client.destroy();
  const upstream = net.connect(port, host);
  const pair = [client, upstream];
  open.add(pair);
  const end = () => { open.delete(pair); client.destroy(); upstream.destroy(); };
  client.on('error', end); upstream.on('error', end); client.on('close', end); upstream.on('close', end);
  client.pipe(upstream); upstream.pipe(client);
});
const cut = () => { for (const [a, b] of [...open]) { a.destroy(); b.destroy(); } open.clear(); };
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  for (const cmd of d.split('\\n').filter(Boolean)) {
    if (cmd === 'cut') cut();
    if (cmd === 'down') { down = true; cut(); }
    if (cmd === 'up') down = false;
    console.log('done ' + cmd);
  }
});
`;

const key = `osmand-faults-${randomUUID()}`;
let proxy: ChildProcess;
let t: TestApp;
const pending = new Map<string, () => void>();

function command(cmd: 'cut' | 'down' | 'up'): Promise<void> {
  return new Promise((ok) => {
    pending.set(cmd, ok);
    proxy.stdin!.write(`${cmd}\n`);
  });
}

beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  const target = new URL(TEST_DATABASE_URL);
  proxy = spawn(process.execPath, ['-e', PROXY, target.hostname, target.port || '5432'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((ok) => {
    proxy.stdout!.setEncoding('utf8');
    proxy.stdout!.on('data', (d: string) => {
      for (const line of d.split('\n')) {
        const m = /^port (\d+)/.exec(line);
        if (m) ok(m[1]);
        const done = /^done (\w+)/.exec(line);
        if (done) {
          pending.get(done[1])?.();
          pending.delete(done[1]);
        }
      }
    });
  });
  const url = new URL((await storeEnv(key)).DATABASE_URL!);
  url.port = port;
  t = await makeTestApp({}, { DATABASE_URL: url.toString() });
});

afterAll(async () => {
  await t?.close();
  proxy?.kill();
  await dropStore(key);
});

interface Sent {
  uniqueId: string;
  deviceId: number;
  fixTime: number;
  status: number;
  ms: number;
}

describe('OsmAnd during PostgreSQL faults', () => {
  it('acknowledged = stored, refused = 503 (stored only if acknowledged on resend), nothing twice, no hang, health at once', async () => {
    const devices: Array<{ id: number; uniqueId: string }> = [];
    for (let i = 0; i < 24; i++) devices.push(await createDevice(t));
    const sent: Sent[] = [];
    let stop = false;
    const base = Date.UTC(2026, 0, 1) / 1000;
    let seq = 0;
    const sender = async (n: number) => {
      const d = devices[n % devices.length];
      let fixTime = base + seq++;
      let taken = true;
      // after the stop, a refused position is still sent again until taken (PostgreSQL is back by then)
      for (let late = 0; (!stop || !taken) && late < 200; late += stop ? 1 : 0) {
        const started = Date.now();
        const res = await t.app.inject({
          method: 'POST',
          url: `/?id=${d.uniqueId}&lat=-23.5&lon=-46.6&timestamp=${fixTime}`,
        });
        sent.push({
          uniqueId: d.uniqueId,
          deviceId: d.id,
          fixTime,
          status: res.statusCode,
          ms: Date.now() - started,
        });
        taken = res.statusCode === 200;
        if (taken) fixTime = base + seq++;
        // a tracker whose position was refused tries again a little later (and the timers below get their turn)
        await new Promise((r) => setTimeout(r, res.statusCode === 200 ? 0 : 20));
      }
    };
    const senders = Array.from({ length: 96 }, (_, i) => sender(i));
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await wait(500);
    for (let i = 0; i < 10; i++) {
      await command('cut');
      await wait(200);
    }
    await command('down');
    await wait(300);
    const healthStarted = Date.now();
    const health = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-language': 'en-US' },
    });
    const healthMs = Date.now() - healthStarted;
    await wait(1_500);
    await command('up');
    await wait(2_000); // connected again: positions are taken again
    const lastPhase = sent.length;
    await wait(800);
    stop = true;
    await Promise.all(senders);

    expect(health.statusCode).toBe(503);
    expect(health.body).toMatch(/database is unavailable/i);
    expect(healthMs).toBeLessThan(1_000);

    const stored = (await select(
      t.ctx.store.sql,
      'positions',
      {},
      { columns: ['deviceId', 'fixTime'] },
    )) as Array<{
      deviceId: number;
      fixTime: string;
    }>;
    const storedKeys = stored.map((p) => `${p.deviceId}/${Date.parse(p.fixTime) / 1000}`);
    expect(new Set(storedKeys).size).toBe(storedKeys.length); // nothing twice
    const storedSet = new Set(storedKeys);
    const ok = sent.filter((s) => s.status === 200);
    const refused = sent.filter((s) => s.status !== 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0); // the faults were felt
    expect(new Set(refused.map((s) => s.status))).toEqual(new Set([503]));
    expect(ok.filter((s) => !storedSet.has(`${s.deviceId}/${s.fixTime}`))).toEqual([]);
    // stored = acknowledged: a refused position stored (its COMMIT's answer lost) was acknowledged on its resend
    const acknowledged = new Set(ok.map((s) => `${s.deviceId}/${s.fixTime}`));
    expect(
      refused.filter(
        (s) => storedSet.has(`${s.deviceId}/${s.fixTime}`) && !acknowledged.has(`${s.deviceId}/${s.fixTime}`),
      ),
    ).toEqual([]);
    expect(storedSet.size).toBe(ok.length);
    // no request hung (a hang would be the 12 s wait or more)
    expect(Math.max(...sent.map((s) => s.ms))).toBeLessThan(5_000);
    // taken again once PostgreSQL is back
    expect(sent.slice(lastPhase).some((s) => s.status === 200)).toBe(true);
  });
});
