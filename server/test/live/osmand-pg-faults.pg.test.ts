// OsmAnd ingestion while PostgreSQL connections break (issue #30): the server reaches PostgreSQL through a TCP proxy
// in another process that cuts every connection (as pg_terminate_backend, a failover or a network blip do) and
// once refuses connections for a while (PostgreSQL down). During a 96-way flood of positions on one server, whose
// trackers send a refused position again until it is taken: every position answered 200 is stored, every one not
// stored was answered 503, none is stored twice, no request hangs, /api/health answers 503 at once while the
// database is down, and ingestion works again afterwards. A position answered 503 may be stored when a cut lost
// its batch's COMMIT answer: its resend is then acknowledged without a second row, so in the end what is stored is
// exactly what was acknowledged.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, makeTestApp, type TestApp } from '../helpers/index.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { startPgProxy, type PgProxy } from '../support/pgProxy.ts';
import { select } from '../support/testSql.ts';

const key = `osmand-faults-${randomUUID()}`;
let proxy: PgProxy;
let t: TestApp;

beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  proxy = await startPgProxy((await storeEnv(key)).DATABASE_URL!);
  t = await makeTestApp({}, { DATABASE_URL: proxy.url });
});

afterAll(async () => {
  await t?.close();
  proxy?.close();
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
      await proxy.command('cut');
      await wait(200);
    }
    await proxy.command('down');
    await wait(300);
    const healthStarted = Date.now();
    const health = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-language': 'en-US' },
    });
    const healthMs = Date.now() - healthStarted;
    await wait(1_500);
    await proxy.command('up');
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
