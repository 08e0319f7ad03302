// A batch's write on PostgreSQL's pool (issue #30; db/repos/ingestPooled.ts, live/pooledBatches.ts): while
// PostgreSQL commits a batch of positions the main thread serves the API, and the batch is answered only once its
// write is — stored and published when it committed; when it failed, every position of the batch answered
// `unavailable` (OsmAnd 503), nothing of it stored or published, and the next batch stored. The write is held in
// the database by a deferred trigger on positions that takes an advisory lock this test holds (latitude 10), or
// refused by it (latitude 20), so the order is certain without any timing. Batches of other devices are written
// side by side on other pooled connections and answered first; a report of a device whose batch is in flight
// waits for it, answered after it, and is refused if that batch is.
import type { Position } from '@rastro/domain';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED } from '../../src/live/batchPipeline.ts';
import { getLive, type IngestResult } from '../../src/live/ingest.ts';
import { requestCounter } from '../../src/traccar/requestCounter.ts';
import { api, createDevice, type TestApp } from '../helpers/app.ts';
import { one, select } from '../support/testSql.ts';
import { startPgTestApp } from '../support/pgLocks.ts';

const LOCK = 3030;
let lastFix = 0;
/** A fix time later than every one before (two fixes of a device in one millisecond are one). */
function laterFixTime(): Date {
  lastFix = Math.max(Date.now(), lastFix + 1);
  return new Date(lastFix);
}
let t: TestApp;
let url: string;
let admin: postgres.Sql;
const published: Position[] = [];

beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
  admin = postgres(url, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`
    CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.latitude = 10 THEN PERFORM pg_advisory_xact_lock(${LOCK}); END IF;
      IF NEW.latitude = 20 THEN RAISE EXCEPTION 'refused at commit'; END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER hold_commit AFTER INSERT ON positions DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION hold_commit();
  `);
  getLive(t.ctx).subscribe({ positions: (ps) => published.push(...ps) });
});
afterAll(async () => {
  await admin?.end({ timeout: 1 });
  await t?.close();
});

/** The backends waiting for the test's advisory lock (looked at for 5 s at most). */
async function lockWaiters(): Promise<number[]> {
  for (let i = 0; i < 100; i++) {
    const rows = await admin.unsafe(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = ${LOCK} AND NOT granted`,
    );
    if (rows.length) return (rows as unknown as Array<{ pid: number }>).map((r) => r.pid);
    await new Promise((r) => setTimeout(r, 50));
  }
  return [];
}

/** The positions stored for the device at these fix times. */
async function storedAt(deviceId: number, fixTimes: Date[]): Promise<number> {
  const rows = (await select(t.ctx.store.sql, 'positions', { deviceId }, { columns: ['fixTime'] })) as Array<{
    fixTime: string;
  }>;
  const wanted = new Set(fixTimes.map((f) => f.getTime()));
  return rows.filter((r) => wanted.has(Date.parse(r.fixTime))).length;
}

/** `n` positions of the device stored, one batch each. */
async function reported(uniqueId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await getLive(t.ctx).ingest({
      protocol: 'osmand',
      uniqueId,
      fixTime: laterFixTime(),
      latitude: 1,
      longitude: 1,
    });
    expect(r.ok).toBe(true);
  }
}

/** An ingestion call whose synchronous failure (the store unreachable) counts as refused. */
async function tryIngest(call: () => Promise<IngestResult>): Promise<IngestResult> {
  try {
    return await call();
  } catch {
    return REFUSED;
  }
}

/** Every API request counted in the store. */
async function requestsCounted(): Promise<number> {
  const row = await one(t.ctx.store.sql, (q) =>
    q.selectFrom('request_stats').select((e) => e.fn.sum<number | null>('requests').as('n')),
  );
  return Number(row?.n ?? 0);
}

/** Holds the advisory lock in a transaction of its own until the returned function releases it. */
async function holdLock(): Promise<() => Promise<void>> {
  const holder = postgres(url, { max: 1, onnotice: () => undefined });
  await holder.unsafe('BEGIN');
  await holder.unsafe(`SELECT pg_advisory_xact_lock(${LOCK})`);
  return async () => {
    await holder.unsafe('ROLLBACK');
    await holder.end({ timeout: 1 });
  };
}

describe("a batch's write on the pool, not waited for (PostgreSQL)", () => {
  it('the API answers while the COMMIT waits; the batch is answered and published once committed', async () => {
    const device = await createDevice(t);
    await requestCounter(t.ctx).flush(); // the counts written now, not while the COMMIT is held
    const release = await holdLock();
    const fixTime = laterFixTime();
    let answered = false;
    const pending = getLive(t.ctx)
      .ingest({ protocol: 'osmand', uniqueId: device.uniqueId, fixTime, latitude: 10, longitude: 10 })
      .finally(() => (answered = true));
    try {
      expect(await lockWaiters()).toHaveLength(1); // the batch's COMMIT waits in PostgreSQL
      const res = await api(t.app, t.admin, 'GET', '/api/devices');
      expect(res.statusCode).toBe(200);
      expect(answered).toBe(false);
      expect(published.some((p) => p.deviceId === device.id)).toBe(false);
    } finally {
      await release();
    }
    const result = await pending;
    expect(result.ok).toBe(true);
    expect(await storedAt(device.id, [fixTime])).toBe(1);
    expect(published.filter((p) => p.deviceId === device.id)).toHaveLength(1);
  });

  it("the request counter's timer writes on the pool while a COMMIT waits: the batch stored, the counts written", async () => {
    const device = await createDevice(t);
    const counter = requestCounter(t.ctx);
    await counter.flush();
    const before = await requestsCounted();
    const release = await holdLock();
    const fixTime = laterFixTime();
    const pending = getLive(t.ctx).ingest({
      protocol: 'osmand',
      uniqueId: device.uniqueId,
      fixTime,
      latitude: 10,
      longitude: 10,
    });
    let flushing: Promise<void> | undefined;
    try {
      expect(await lockWaiters()).toHaveLength(1);
      for (let i = 0; i < 3; i++) counter.count(new Date().toISOString().slice(0, 13));
      // the timer's flush: waited, it held the main thread behind the COMMIT until its wait ran out (the connection
      // then reset, the batch answered unavailable); now one statement on the pool
      flushing = counter.flush();
      const res = await api(t.app, t.admin, 'GET', '/api/devices');
      expect(res.statusCode).toBe(200);
    } finally {
      await release();
    }
    const result = await pending;
    expect(result.ok).toBe(true);
    expect(await storedAt(device.id, [fixTime])).toBe(1);
    await flushing; // the pooled write answered
    await counter.flush();
    expect(await requestsCounted()).toBeGreaterThanOrEqual(before + 3);
  });

  it('a COMMIT PostgreSQL refuses answers every position of the batch unavailable and stores none', async () => {
    const devices = [await createDevice(t), await createDevice(t), await createDevice(t)];
    const fixTime = laterFixTime();
    const live = getLive(t.ctx);
    // one batch: queued in the same turn of the loop; the third position is refused by the trigger at COMMIT
    const results = await Promise.all(
      devices.map((d, i) =>
        live.ingest({
          protocol: 'osmand',
          uniqueId: d.uniqueId,
          fixTime,
          latitude: i === 2 ? 20 : 1,
          longitude: 1,
        }),
      ),
    );
    expect(results.map((r) => (r.ok ? 'ok' : r.error))).toEqual([
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
    for (const d of devices) expect(await storedAt(d.id, [fixTime])).toBe(0);
    expect(published.some((p) => devices.some((d) => d.id === p.deviceId))).toBe(false);
    // the next batch is stored, from what the store holds (the refused batch forgotten)
    const next = laterFixTime();
    const again = await live.ingest({
      protocol: 'osmand',
      uniqueId: devices[0].uniqueId,
      fixTime: next,
      latitude: 1,
      longitude: 1,
    });
    expect(again.ok).toBe(true);
    expect(await storedAt(devices[0].id, [fixTime, next])).toBe(1);
  });

  it('a batch of another device is written while a write waits in PostgreSQL: answered and published first', async () => {
    const [a, b] = [await createDevice(t), await createDevice(t)];
    const live = getLive(t.ctx);
    await reported(b.uniqueId, 2);
    await requestCounter(t.ctx).flush();
    const seen = published.length;
    const release = await holdLock();
    const [fixA, fixB] = [laterFixTime(), laterFixTime()];
    let firstAnswered = false;
    const first = live
      .ingest({ protocol: 'osmand', uniqueId: a.uniqueId, fixTime: fixA, latitude: 10, longitude: 1 })
      .finally(() => (firstAnswered = true));
    try {
      expect(await lockWaiters()).toHaveLength(1);
      // written side by side on another pooled connection (before: chained behind the first COMMIT)
      const second = await live.ingest({
        protocol: 'osmand',
        uniqueId: b.uniqueId,
        fixTime: fixB,
        latitude: 1,
        longitude: 1,
      });
      expect(second.ok).toBe(true);
      expect(await storedAt(b.id, [fixB])).toBe(1);
      expect(firstAnswered).toBe(false);
      expect(await lockWaiters()).toHaveLength(1); // the first still waits in PostgreSQL
    } finally {
      await release();
    }
    expect((await first).ok).toBe(true);
    expect([await storedAt(a.id, [fixA]), await storedAt(b.id, [fixB])]).toEqual([1, 1]);
    const order = published
      .slice(seen)
      .filter((p) => p.deviceId === a.id || p.deviceId === b.id)
      .map((p) => p.deviceId);
    expect(order).toEqual([b.id, a.id]);
  });

  it('a report of a device whose batch is in flight waits for it: answered after it, stored in order', async () => {
    const device = await createDevice(t);
    const live = getLive(t.ctx);
    await requestCounter(t.ctx).flush();
    const release = await holdLock();
    const [fix, later] = [laterFixTime(), laterFixTime()];
    const answered: string[] = [];
    const first = live
      .ingest({ protocol: 'osmand', uniqueId: device.uniqueId, fixTime: fix, latitude: 10, longitude: 1 })
      .finally(() => answered.push('first'));
    let second: Promise<IngestResult> | undefined;
    try {
      expect(await lockWaiters()).toHaveLength(1);
      second = live
        .ingest({ protocol: 'osmand', uniqueId: device.uniqueId, fixTime: later, latitude: 1, longitude: 1 })
        .finally(() => answered.push('second'));
    } finally {
      await release();
    }
    expect([(await first).ok, (await second)?.ok]).toEqual([true, true]);
    expect(answered).toEqual(['first', 'second']);
    expect(await storedAt(device.id, [fix, later])).toBe(2);
    const mine = published.filter((p) => p.deviceId === device.id).map((p) => Date.parse(p.fixTime));
    expect(mine).toEqual([fix.getTime(), later.getTime()]);
  });

  it('a report queued behind a refused batch of its device is refused too; none stored, then stored again', async () => {
    const [a, b] = [await createDevice(t), await createDevice(t)];
    const live = getLive(t.ctx);
    await reported(a.uniqueId, 2);
    await requestCounter(t.ctx).flush();
    const seen = published.length;
    const release = await holdLock();
    const fix = laterFixTime();
    const later = laterFixTime();
    // one batch: device a's row waits for the lock, then device b's is refused by the trigger (all or nothing)
    const first = Promise.all([
      live.ingest({ protocol: 'osmand', uniqueId: a.uniqueId, fixTime: fix, latitude: 10, longitude: 1 }),
      live.ingest({ protocol: 'osmand', uniqueId: b.uniqueId, fixTime: fix, latitude: 20, longitude: 1 }),
    ]);
    let second: Promise<IngestResult> | undefined;
    try {
      expect(await lockWaiters()).toHaveLength(1);
      // device a's batch is in flight: this report waits in the queue for its outcome
      second = live.ingest({
        protocol: 'osmand',
        uniqueId: a.uniqueId,
        fixTime: later,
        latitude: 1,
        longitude: 1,
      });
    } finally {
      await release();
    }
    const answers = [...(await first), await second].map((r) => (r?.ok ? 'ok' : r?.error));
    expect(answers).toEqual(['unavailable', 'unavailable', 'unavailable']);
    expect((await storedAt(a.id, [fix, later])) + (await storedAt(b.id, [fix]))).toBe(0);
    expect(published.slice(seen).some((p) => p.deviceId === a.id || p.deviceId === b.id)).toBe(false);
    const again = await live.ingest({
      protocol: 'osmand',
      uniqueId: a.uniqueId,
      fixTime: later,
      latitude: 1,
      longitude: 1,
    });
    expect(again.ok).toBe(true);
    expect(await storedAt(a.id, [fix, later])).toBe(1);
  });

  it('a connection lost during the COMMIT: the batch answered unavailable at once, none stored, taken again', async () => {
    const device = await createDevice(t);
    await requestCounter(t.ctx).flush(); // the counts written now, not while the COMMIT is held
    const release = await holdLock();
    const fixTime = laterFixTime();
    const pending = getLive(t.ctx).ingest({
      protocol: 'osmand',
      uniqueId: device.uniqueId,
      fixTime,
      latitude: 10,
      longitude: 10,
    });
    try {
      const [pid] = await lockWaiters();
      expect(pid).toBeGreaterThan(0);
      await admin.unsafe(`SELECT pg_terminate_backend(${pid})`);
      const result = await pending;
      expect(result.ok ? 'ok' : result.error).toBe('unavailable');
    } finally {
      await release();
    }
    // terminated while waiting: rolled back (read here, the app's own connection is being made again)
    const rows = await admin.unsafe('SELECT count(*)::int AS n FROM positions WHERE "deviceId" = $1', [
      device.id,
    ]);
    expect((rows[0] as unknown as { n: number }).n).toBe(0);
    // taken again once connected again (answered at once, the batch may come before the new connection: a
    // device lookup that reloads the cache then fails, as the tracker's request would be answered 503)
    const resend = () =>
      getLive(t.ctx).ingest({
        protocol: 'osmand',
        uniqueId: device.uniqueId,
        fixTime,
        latitude: 1,
        longitude: 1,
      });
    let again = await tryIngest(resend);
    for (let i = 0; i < 100 && !again.ok; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await tryIngest(resend);
    }
    expect(again.ok).toBe(true);
    expect(await storedAt(device.id, [fixTime])).toBe(1);
  });
});
