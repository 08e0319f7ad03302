// The status sweep and a pooled ingestion batch writing the same devices rows (issue #30, session 36, H30g;
// decision 41's deadlock rule): the sweep (live/statusSweep.ts) writes its devices' statuses in one transaction on
// the pool, a batch (live/pooledBatches.ts) writes its devices' states in one statement on another pooled
// connection, each locking the rows in its own order. The sweep now locks its rows first, in id order, skipping any
// another transaction holds (db/repos/sweepLocks.ts: FOR UPDATE SKIP LOCKED): it never waits for a devices row, so
// it cannot close a cycle with a batch. Another connection holds a row (as a batch in flight does) and the test sees
// the batch waiting for it in pg_locks, so the order is certain without any timing: the sweep completes while the row
// is held, the held device is left online (swept on a later run), and the batch is stored once the row is released.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qb, rowsAsync } from '../../src/db/repos/query.ts';
import { getLive } from '../../src/live/ingest.ts';
import { createDevice, type TestApp } from '../helpers/app.ts';
import { laterFixTime } from '../helpers/live.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

/** Far enough ahead that every device online is silent for the sweep. */
const later = () => Date.now() + 7 * 24 * 3600_000;

const report = (uniqueId: string) =>
  getLive(t.ctx).ingest({ protocol: 'osmand', uniqueId, fixTime: laterFixTime(), latitude: 1, longitude: 1 });

async function stored(ids: number[]): Promise<Record<number, string | null>> {
  const db = t.ctx.store.sql;
  const rows = await rowsAsync(
    db,
    qb(db).selectFrom('devices').select(['id', 'status']).where('id', 'in', ids),
  );
  return Object.fromEntries(rows.map((r) => [Number(r.id), r.status]));
}

async function unknownEvents(ids: number[]): Promise<number[]> {
  const db = t.ctx.store.sql;
  const rows = await rowsAsync(
    db,
    qb(db)
      .selectFrom('events')
      .select('deviceId')
      .where('type', '=', 'deviceUnknown')
      .where('deviceId', 'in', ids),
  );
  return rows.map((r) => Number(r.deviceId)).sort((a, b) => a - b);
}

/** `p`, or a failure when it is not settled within 5 s (it waits for the lock the test holds). */
function settled<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} waited for a row lock`)), 5_000);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('the status sweep against a row held by another transaction', () => {
  it('skips the held device instead of waiting, and sweeps it on a later run', async () => {
    const a = await createDevice(t, { name: 'Sweep A' });
    const b = await createDevice(t, { name: 'Sweep B' });
    for (const d of [a, b]) expect((await report(d.uniqueId)).ok).toBe(true);
    const { locker, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [a.id]);
      await settled(getLive(t.ctx).sweep(later()), 'the sweep');
      expect(await stored([a.id, b.id])).toEqual({ [a.id]: 'online', [b.id]: 'unknown' });
      expect(await unknownEvents([a.id, b.id])).toEqual([b.id]);
      await locker.unsafe('ROLLBACK');
      await settled(getLive(t.ctx).sweep(later()), 'the next sweep');
      expect(await stored([a.id, b.id])).toEqual({ [a.id]: 'unknown', [b.id]: 'unknown' });
      expect(await unknownEvents([a.id, b.id])).toEqual([a.id, b.id]);
    } finally {
      await end();
    }
  });

  it('completes while a pooled batch of the same devices waits for a row, and the batch is stored after', async () => {
    const c = await createDevice(t, { name: 'Sweep C' });
    const d = await createDevice(t, { name: 'Sweep D' });
    for (const x of [c, d]) expect((await report(x.uniqueId)).ok).toBe(true);
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [c.id]);
      // one batch of both devices, reported in the opposite order to the sweep's (ids ascending)
      const batch = Promise.all([report(d.uniqueId), report(c.uniqueId)]);
      await untilLockWaited(watcher, 'transactionid'); // the batch's statement waits for c's row
      let answered = false;
      void batch.then(() => (answered = true));
      await settled(getLive(t.ctx).sweep(later()), 'the sweep');
      expect(answered).toBe(false); // the sweep completed while the batch still waited
      await locker.unsafe('ROLLBACK');
      const results = await settled(batch, 'the batch');
      expect(results.map((r) => r.ok)).toEqual([true, true]);
      // the batch's newer states win: both online, each position stored
      expect(await stored([c.id, d.id])).toEqual({ [c.id]: 'online', [d.id]: 'online' });
      const db = t.ctx.store.sql;
      const positions = await rowsAsync(
        db,
        qb(db).selectFrom('positions').select('deviceId').where('deviceId', 'in', [c.id, d.id]),
      );
      expect(positions).toHaveLength(4);
    } finally {
      await end();
    }
  });
});
