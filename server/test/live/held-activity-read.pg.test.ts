// The hours of activity a process holds on PostgreSQL (db/repos/ingestPooled.ts HeldActivity, issue #30, session 48)
// when their write fails while PostgreSQL can still be read: the dashboard is answered from what the store has
// instead of failing with the write, the rows stay held and the failure is told; as the process stops, a failed last
// write is told with the number of rows lost, and the stop completes. The write is made to fail by a held row
// PostgreSQL refuses (a distance that is not a number, sent as null to a NOT NULL column).
import { randomUUID } from 'node:crypto';
import { emptyStep, type DashboardAnswer } from '@rastro/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pooledIngest, writeHeldActivity, type HeldActivity } from '../../src/db/repos/ingestPooled.ts';
import { getLive } from '../../src/live/ingest.ts';
import {
  api,
  createDevice,
  expectStatus,
  ingestPosition,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

const key = `held-activity-read-${randomUUID()}`;
let t: TestApp;
let held: HeldActivity;
const told: string[] = [];
const FROM = '2026-11-20T00:00:00.000Z';
const TO = '2026-11-20T23:59:59.999Z';

beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  t = await makeTestApp({}, await storeEnv(key));
  held = pooledIngest(t.ctx.store.sql)!.activity;
  const log = held.failed;
  held.failed = (err, what) => {
    told.push(what);
    log(err, what);
  };
});
afterAll(async () => {
  await dropStore(key);
});

describe('hours of activity held on PostgreSQL, their write failing', () => {
  it('answers the dashboard from the store, keeps the rows held and tells; a failed last write at stop is told', async () => {
    const device = await createDevice(t);
    for (const [time, distance] of [
      ['2026-11-20T10:00:00Z', 0],
      ['2026-11-20T10:01:00Z', 1500],
    ] as const)
      await ingestPosition(t, {
        uniqueId: device.uniqueId,
        fixTime: new Date(time),
        speed: 20,
        attributes: { distance, motion: true },
      });
    await getLive(t.ctx).settle();
    await writeHeldActivity(t.ctx.store.sql); // the device's 1,500 m in the store
    expect(told).toEqual([]);

    held.add([{ ...emptyStep(), deviceId: device.id, hour: 491_458, driver: '', distance: Number.NaN }]);
    const query = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;
    const d = expectStatus<DashboardAnswer>(
      await api(t.app, t.admin, 'GET', `/rastro/dashboard?${query}`),
      200,
    );
    expect(d.totals.distance).toBe(1500);
    // each of the dashboard's reads of the hours tried the write first
    expect(told.length).toBeGreaterThan(0);
    expect(told.filter((what) => !/not added yet/.test(what))).toEqual([]);
    expect(held.size).toBe(1);

    const before = told.length;
    await t.close(); // the last write fails too: told, and the stop completes
    expect(told.slice(before)).toEqual([expect.stringMatching(/lost as the process stopped \(1 rows/)]);
    expect(held.size).toBe(0);
  });
});
