// What a batch sends PostgreSQL (issue #30, session 28): once its devices' latest positions are in memory and ids
// are reserved, a batch waits for nothing before its COMMIT and sends three requests: BEGIN (with the read of its
// transaction's id), ONE statement writing its positions, events, hours of activity and device states
// (db/repos/ingestBatch.ts), and COMMIT; every row of the four tables is stored.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresDatabase } from '../../src/db/postgres.ts';
import { getLive, type IncomingPosition } from '../../src/live/ingest.ts';
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
const pos = (uniqueId: string, s: number, extra: Partial<IncomingPosition> = {}): IncomingPosition => ({
  uniqueId,
  protocol: 'osmand',
  fixTime: new Date(T0 + s * 1000),
  latitude: 1,
  longitude: 1 + s / 10_000,
  speed: 10,
  ...extra,
});

it("stores a batch's positions, events, activity and device states; a batch of known devices sends three requests", async () => {
  const live = getLive(t.ctx);
  const db = t.ctx.store.sql as PostgresDatabase;
  const a = await createDevice(t);
  const b = await createDevice(t);
  // the first batch reads the devices' states and reserves ids
  const first = live.ingestMany([pos(a.uniqueId, 0), pos(b.uniqueId, 0)]);
  live.flushNow();
  expect((await first).every((r) => r.ok)).toBe(true);

  const second = live.ingestMany([
    pos(a.uniqueId, 60, { attributes: { alarm: 'sos' } }),
    pos(b.uniqueId, 60),
    pos(b.uniqueId, 120),
  ]);
  live.flushNow();
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
  expect(await count(sql, 'activity', { deviceId: [a.id, b.id] })).toBeGreaterThan(0);

  // the next batch of these devices: nothing to read, ids reserved
  const before = db.client.requests;
  const third = live.ingestMany([pos(a.uniqueId, 180), pos(b.uniqueId, 180)]);
  live.flushNow();
  expect(db.client.requests - before).toBe(3);
  expect((await third).every((r) => r.ok)).toBe(true);
  expect(await count(sql, 'positions', { deviceId: [a.id, b.id] })).toBe(7);
});
