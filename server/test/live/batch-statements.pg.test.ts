// What a batch stores on PostgreSQL (issue #30, session 28): its positions, events, hours of activity and device
// states (db/repos/ingestBatch.ts); every row of the four tables is stored. Since session 36 the batches are the
// pooled ones (settle(); flushNow, SQLite's synchronous transaction, refuses PostgreSQL), and since session 38
// PostgreSQL's store has no synchronous handle at all. Since session 47 the hours of activity of stored batches are
// held in memory and added as one statement every few seconds.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pooledIngest, writeHeldActivity } from '../../src/db/repos/ingestPooled.ts';
import { getLive, type IncomingPosition } from '../../src/live/ingest.ts';
import { reportAt } from '../support/report.ts';
import { createDevice, makeTestApp, type TestApp } from '../helpers/app.ts';
import { TEST_DATABASE_URL } from '../helpers/store.ts';
import { count, select } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

const T0 = Date.parse('2026-11-29T12:00:00Z');
const pos = (uniqueId: string, s: number, extra: Partial<IncomingPosition> = {}) =>
  reportAt(uniqueId, T0, s, { longitude: 1 + s / 10_000, speed: 10, ...extra });

it("stores a batch's positions, events, activity and device states; a batch of known devices is stored on the pool", async () => {
  const live = getLive(t.ctx);
  pooledIngest(t.ctx.store.sql)!.activity.holdMs = 600_000; // written below, not by the timer
  const a = await createDevice(t);
  const b = await createDevice(t);
  // the first batch reads the devices' states and reserves ids
  const first = live.ingestMany([pos(a.uniqueId, 0), pos(b.uniqueId, 0)]);
  await live.settle();
  expect((await first).every((r) => r.ok)).toBe(true);

  const second = live.ingestMany([
    pos(a.uniqueId, 60, { attributes: { alarm: 'sos' } }),
    pos(b.uniqueId, 60),
    pos(b.uniqueId, 120),
  ]);
  await live.settle();
  const results = await second;

  expect(results.every((r) => r.ok)).toBe(true);
  const ids = results.map((r) => (r.ok ? r.position.id : 0));
  const sql = t.ctx.store.sql;
  expect(await select(sql, 'positions', { id: ids }, { columns: ['id'] })).toHaveLength(3);
  const alarm = await select<{ positionId: number }>(
    sql,
    'events',
    { deviceId: a.id, type: 'alarm' },
    { columns: ['positionId'] },
  );
  expect(alarm.map((e) => Number(e.positionId))).toEqual([ids[0]]);
  const devices = (
    await select<{ id: number; positionId: number; status: string }>(
      sql,
      'devices',
      { id: [a.id, b.id] },
      { columns: ['id', 'positionId', 'status'], orderBy: ['id'] },
    )
  ).map((d) => ({ id: Number(d.id), positionId: Number(d.positionId), status: d.status }));
  expect(devices).toEqual([
    { id: a.id, positionId: ids[0], status: 'online' },
    { id: b.id, positionId: ids[2], status: 'online' },
  ]);
  // the hours of activity are held in memory (db/repos/ingestPooled.ts HeldActivity, session 47), then added at once
  expect(await count(sql, 'activity', { deviceId: [a.id, b.id] })).toBe(0);
  expect(pooledIngest(sql)!.activity.size).toBe(2);
  await writeHeldActivity(sql);
  expect(await count(sql, 'activity', { deviceId: [a.id, b.id] })).toBe(2);

  // the next batch of these devices: on the pool (PostgreSQL's store has no synchronous statement); flushNow,
  // SQLite's synchronous batch, PostgreSQL refuses (issue #30, session 36)
  const third = live.ingestMany([pos(a.uniqueId, 180), pos(b.uniqueId, 180)]);
  await live.settle();
  expect(() => live.flushNow()).toThrow(/SQLite's synchronous path/);
  expect((await third).every((r) => r.ok)).toBe(true);
  expect(await count(sql, 'positions', { deviceId: [a.id, b.id] })).toBe(7);
});

it('adds the hours of activity it holds as the live core closes', async () => {
  const live = getLive(t.ctx);
  const sql = t.ctx.store.sql;
  const c = await createDevice(t);
  const first = live.ingestMany([pos(c.uniqueId, 0), pos(c.uniqueId, 30)]);
  await live.settle();
  expect((await first).every((r) => r.ok)).toBe(true);
  expect(await count(sql, 'activity', { deviceId: c.id })).toBe(0); // held (holdMs set above)
  await live.close();
  expect(pooledIngest(sql)!.activity.size).toBe(0);
  expect(await count(sql, 'activity', { deviceId: c.id })).toBe(1);
});
