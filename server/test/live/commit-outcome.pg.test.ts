// A connection cut while a batch's write is outstanding (issue #30; the batch written as one statement on a pooled
// connection, live/pooledBatches.ts). PostgreSQL may have committed it or not: it is answered `unavailable` (OsmAnd
// 503) at once, while PostgreSQL is still unreachable, never after waiting for it. A batch of another device is
// written side by side meanwhile and answered while the first waits in PostgreSQL. Here the first write does land
// after the cut (it waits for an advisory lock the test holds, taken by a deferred trigger, and the backend finishes
// it once the lock is released): its resend is acknowledged and stored once, and its position is published when
// PostgreSQL, asked once it is back, says it is stored (the resend, found stored, raises nothing), and its hour of
// activity is added then. The app reaches PostgreSQL through a proxy that goes down.
import { randomUUID } from 'node:crypto';
import type { Position } from '@rastro/domain';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHeldActivity } from '../../src/db/repos/ingestPooled.ts';
import { getLive } from '../../src/live/ingest.ts';
import { requestCounter } from '../../src/traccar/requestCounter.ts';
import { createDevice, makeTestApp, type TestApp } from '../helpers/app.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { startPgProxy, type PgProxy } from '../support/pgProxy.ts';

const LOCK = 3031;
const key = `commit-outcome-${randomUUID()}`;
let lastFix = 0;
/** A fix time later than every one before. */
function laterFixTime(): Date {
  lastFix = Math.max(Date.now(), lastFix + 1);
  return new Date(lastFix);
}
let t: TestApp;
let proxy: PgProxy;
let admin: postgres.Sql;
let url: string;
const published: Position[] = [];

beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
  proxy = await startPgProxy(url);
  t = await makeTestApp({}, { DATABASE_URL: proxy.url });
  admin = postgres(url, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`
    CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.latitude = 10 THEN PERFORM pg_advisory_xact_lock(${LOCK}); END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER hold_commit AFTER INSERT ON positions DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION hold_commit();
  `);
  getLive(t.ctx).subscribe({ positions: (ps) => published.push(...ps) });
});
afterAll(async () => {
  await proxy?.command('up');
  await admin?.end({ timeout: 1 });
  await t?.close();
  proxy?.close();
  await dropStore(key);
});

/** Looks (every 50 ms, 10 s at most) until `check` is true. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** The rows stored for the device at the fix time, read directly (not through the app's connection). */
async function rowsAt(deviceId: number, fixTime: Date): Promise<number> {
  const rows = await admin.unsafe(
    'SELECT count(*)::int AS n FROM positions WHERE "deviceId" = $1 AND "fixTime" = $2',
    [deviceId, fixTime.toISOString()],
  );
  return (rows[0] as unknown as { n: number }).n;
}

const report = (uniqueId: string, fixTime: Date, latitude = 1) =>
  getLive(t.ctx).ingest({ protocol: 'osmand', uniqueId, fixTime, latitude, longitude: 1 });

/** Reports the position again until it is taken (as a tracker does after a 503 or no answer). */
async function resend(uniqueId: string, fixTime: Date): Promise<boolean> {
  return eventually(async () => {
    try {
      return (await report(uniqueId, fixTime)).ok;
    } catch {
      return false; // the device lookup's reload failed: not connected again yet
    }
  });
}

describe('a connection cut while a write is outstanding (batches side by side)', () => {
  it('the other device answered while the first waits; the first answered unavailable at once, published late, acknowledged once on resend', async () => {
    const [a, c] = [await createDevice(t), await createDevice(t)];
    for (let i = 0; i < 2; i++) expect((await report(c.uniqueId, laterFixTime())).ok).toBe(true);
    await requestCounter(t.ctx).flush();
    const holder = postgres(url, { max: 1, onnotice: () => undefined });
    await holder.unsafe('BEGIN');
    await holder.unsafe(`SELECT pg_advisory_xact_lock(${LOCK})`);
    const [fixA, fixC] = [laterFixTime(), laterFixTime()];
    const first = report(a.uniqueId, fixA, 10);
    try {
      expect(
        await eventually(async () => {
          const waiting = await admin.unsafe(
            `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = ${LOCK} AND NOT granted`,
          );
          return waiting.length === 1;
        }),
      ).toBe(true);
      // another device's batch: written on another pooled connection and answered while the first waits
      expect((await report(c.uniqueId, fixC)).ok).toBe(true);
      await proxy.command('down');
      const answer = await first; // at once, PostgreSQL unreachable
      expect(answer.ok ? 'ok' : answer.error).toBe('unavailable');
    } finally {
      await holder.unsafe('ROLLBACK'); // the lock released: the first write, still in PostgreSQL, lands
      await holder.end({ timeout: 1 });
    }
    expect(await eventually(async () => (await rowsAt(a.id, fixA)) === 1)).toBe(true);
    expect(published.some((p) => p.deviceId === a.id)).toBe(false);
    await proxy.command('up');
    // PostgreSQL asked once back: the first batch is stored, its position published now
    expect(await eventually(() => published.some((p) => p.deviceId === a.id))).toBe(true);
    expect(await resend(a.uniqueId, fixA)).toBe(true);
    expect(await rowsAt(a.id, fixA)).toBe(1); // acknowledged once, not stored twice
    expect(await rowsAt(c.id, fixC)).toBe(1);
    expect(published.filter((p) => p.deviceId === a.id)).toHaveLength(1);
    // its hour of activity held once it was found stored (db/repos/ingestPooled.ts storedLate), then added
    await writeHeldActivity(t.ctx.store.sql);
    const hours = await admin.unsafe('SELECT count(*)::int AS n FROM activity WHERE "deviceId" = $1', [a.id]);
    expect((hours[0] as unknown as { n: number }).n).toBe(1);
  });
});
