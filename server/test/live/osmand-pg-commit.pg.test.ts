// An ingestion batch's COMMIT on PostgreSQL is not waited for by the main thread (issue #30, ingestion speed): while
// PostgreSQL holds the batch (here another connection locks the positions table), timers, the API and the next
// batch keep running; the position is acknowledged once it is stored, and a batch whose connection is lost while its
// COMMIT is in flight is answered by what PostgreSQL did (osmand-pg-faults.pg.test.ts).
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, makeTestApp, type TestApp } from '../helpers/index.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

const key = `osmand-commit-${randomUUID()}`;
let t: TestApp;
let url: string;

beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  url = (await storeEnv(key)).DATABASE_URL!;
  t = await makeTestApp({}, { DATABASE_URL: url });
});

afterAll(async () => {
  await t?.close();
  await dropStore(key);
});

describe('an OsmAnd batch on PostgreSQL', () => {
  it('leaves the event loop running while PostgreSQL holds it, and is acknowledged once stored', async () => {
    const device = await createDevice(t);
    const send = (timestamp: number) =>
      t.app.inject({
        method: 'POST',
        url: `/?id=${device.uniqueId}&lat=-23.5&lon=-46.6&timestamp=${timestamp}`,
      });
    // the device's first positions: its look-ups, the ids reserved ahead and the maintenances are read once
    expect((await send(1767225600)).statusCode).toBe(200);
    expect((await send(1767225660)).statusCode).toBe(200);
    const locker = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      const held = await locker.reserve();
      await held`BEGIN`;
      await held`LOCK TABLE positions IN EXCLUSIVE MODE`; // the batch's INSERT waits for it
      // released by PostgreSQL itself after a second, whatever this thread is doing meanwhile
      const released = held`SELECT pg_sleep(1)`.then(() => held`ROLLBACK`);
      let answered = false;
      const answer = send(1767225720).finally(() => (answered = true));
      // a timer fires while the batch waits for PostgreSQL (with the main thread waiting on its COMMIT it could
      // not: it would fire once the position was answered)
      const timerFired = await new Promise<boolean>((ok) => setTimeout(() => ok(!answered), 100));
      await released;
      held.release();
      const res = await answer;
      expect(timerFired).toBe(true);
      expect(res.statusCode).toBe(200);
      const rows = t.ctx.store.sql
        .prepare('SELECT COUNT(*) AS n FROM positions WHERE deviceId = ?')
        .get(device.id);
      expect(rows).toEqual({ n: 3 });
    } finally {
      await locker.end();
    }
  }, 30_000);
});
