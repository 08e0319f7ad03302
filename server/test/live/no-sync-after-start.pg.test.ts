// The server on PostgreSQL has no synchronous handle (issue #30; session 36 H30p, sessions 37–38 H30r and H30s):
// its store (db/postgres.ts) holds no connection, and its synchronous members — prepare, prepareNative,
// transaction, exec — refuse. From before start-up, through a short OsmAnd flood of several devices (their batches on the pool, the
// live cache reloaded on the pool after API writes in between), maintenance events fired by it (the maintenances
// come with the cache's reload), a few API reads and writes, the status sweep and settle, none of those members is
// even called (spied on the class: a refusal caught somewhere would still show). flushNow, SQLite's synchronous
// batch, refuses PostgreSQL before reaching the store.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PostgresStore } from '../../src/db/postgres.ts';
import { qb, row, write } from '../../src/db/repos/query.ts';
import { getLive } from '../../src/live/ingest.ts';
import {
  api,
  createDevice,
  createObject,
  expectStatus,
  link,
  reportedEvents,
  type TestApp,
} from '../helpers/index.ts';
import { startPgTestApp } from '../support/pgLocks.ts';

let t: TestApp;
const SYNCHRONOUS = ['prepare', 'prepareNative', 'transaction', 'exec'] as const;
/** Every call of the store's synchronous members, from before the app's start-up (the member and its text). */
let spies: Array<{ mock: { calls: unknown[][] } }>;
const called = () =>
  spies.flatMap((s, i) => s.mock.calls.map((c) => `${SYNCHRONOUS[i]} ${String(c[0]).slice(0, 120)}`));
beforeAll(async () => {
  spies = SYNCHRONOUS.map((m) => vi.spyOn(PostgresStore.prototype, m));
  ({ t } = await startPgTestApp());
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

const T0 = Date.parse('2026-11-30T08:00:00Z');
const STEP_S = 30;

/** `count` OsmAnd reports of the device, one after the other, STEP_S seconds apart from `from` (s after T0). */
async function drive(uniqueId: string, count: number, from = 0): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const s = from + i * STEP_S;
    const res = await t.app.inject({
      method: 'POST',
      url: `/?id=${uniqueId}&lat=${-23.5 + s / 10_000}&lon=-46.6&timestamp=${(T0 + s * 1000) / 1000}&speed=20`,
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

it('a flood, maintenance events, API calls and the sweep call no synchronous member of the store', async () => {
  const live = getLive(t.ctx);
  // start-up: migrations on their own connection, the statuses' reset and the queued commands' read on the pool
  expect(called()).toEqual([]);

  // a maintenance every minute of fix time, linked to the first device directly and to the others through a group
  const maintenance = await createObject(t, 'maintenance', {
    name: 'Every minute',
    type: 'fixTime',
    start: T0,
    period: 60_000,
  });
  const group = await createObject(t, 'groups', { name: 'Maintained' });
  await link(t, { groupId: group.id, maintenanceId: maintenance.id });
  const devices = [await createDevice(t)];
  for (let i = 0; i < 5; i++) devices.push(await createDevice(t, { groupId: group.id }));
  await link(t, { deviceId: devices[0].id, maintenanceId: maintenance.id });

  // the flood: every device's reports in order, the devices side by side; an API write halfway reloads the cache
  const flood = Promise.all(devices.map((d) => drive(d.uniqueId, 20)));
  const renamed = api(t.app, t.admin, 'PUT', `/api/devices/${devices[1].id}`, {
    ...devices[1],
    name: 'Renamed during the flood',
  });
  const statuses = (await flood).flat();
  expectStatus(await renamed, 200);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  // a second wave after another invalidation (the maintenance's period changed: every 2 minutes from here)
  expectStatus(
    await api(t.app, t.admin, 'PUT', `/api/maintenance/${maintenance.id}`, {
      ...maintenance,
      period: 120_000,
    }),
    200,
  );
  expect((await Promise.all(devices.map((d) => drive(d.uniqueId, 8, 20 * STEP_S)))).flat()).not.toContain(
    503,
  );
  await live.settle();

  // the maintenance fired on each device: one per minute of the first wave (fix times 0 s … 570 s: minutes 1–9),
  // then per 2 minutes in the second (570 s → 600 s crosses 600, 720 s the next boundary): 11
  const from = new Date(T0 - 60_000);
  const to = new Date(T0 + 3_600_000);
  for (const d of devices) {
    const events = await reportedEvents<{ maintenanceId: number }>(t, d.id, from, to, 'maintenance');
    expect(events.map((e) => e.maintenanceId)).toEqual(Array(11).fill(maintenance.id));
  }

  // a few API reads
  expect(expectStatus<unknown[]>(await api(t.app, t.admin, 'GET', '/api/devices'), 200).length).toBe(
    devices.length,
  );
  const latest = expectStatus<Array<{ deviceId: number }>>(
    await api(t.app, t.admin, 'GET', '/api/positions'),
    200,
  );
  expect(new Set(latest.map((p) => p.deviceId))).toEqual(new Set(devices.map((d) => d.id)));
  expectStatus(await api(t.app, t.admin, 'GET', `/api/maintenance?deviceId=${devices[0].id}`), 200);
  // the status sweep (an hour later every device turns unknown: events stored in a pooled transaction)
  await live.sweep(Date.now() + 3_600_000);
  await live.settle();

  expect(() => live.flushNow()).toThrow(/SQLite's synchronous path/);
  expect(called()).toEqual([]);
});

it("PostgreSQL's store holds no connection and refuses every synchronous member", () => {
  const db = t.ctx.store.sql;
  expect(db).toBeInstanceOf(PostgresStore);
  expect(Object.keys(db).sort()).toEqual(['dialect', 'inTransaction']); // no client, no statements kept
  const refused = /PostgreSQL has no synchronous statements/;
  expect(() => db.prepare('SELECT 1')).toThrow(refused);
  expect(() => db.prepareNative('SELECT 1')).toThrow(refused);
  expect(() => db.transaction(() => 1)).toThrow(refused);
  expect(() => db.exec('SELECT 1')).toThrow(refused);
  // and so do query.ts's synchronous runners
  expect(() => row(db, qb(db).selectFrom('devices').select('id'))).toThrow(refused);
  expect(() => write(db, qb(db).deleteFrom('devices').where('id', '=', 0))).toThrow(refused);
});
