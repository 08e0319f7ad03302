// Reports read on PostgreSQL's read pool (issue #30, session 22; db/pool.ts): while a report waits on the database
// the server answers other requests, and a report whose pooled connections are terminated answers 503 with the
// translated message. The report is held in the database by a lock this test takes on the positions table (an
// ACCESS EXCLUSIVE lock makes the report's reads wait), so the order is certain without any timing.
import { formatMessage } from '@rastro/domain';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, type TestApp } from '../helpers/app.ts';
import { startPgTestApp } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
const deviceIds: number[] = [];
let locker: postgres.Sql | null = null;

beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
  for (let i = 0; i < 4; i++) deviceIds.push((await createDevice(t, { name: `Pool ${i}` })).id);
});
afterEach(async () => {
  await locker?.end({ timeout: 1 });
  locker = null;
});
afterAll(async () => {
  await t?.close();
});

/** Takes an ACCESS EXCLUSIVE lock on the positions table in a transaction left open; ROLLBACK releases it. */
async function lockPositions(): Promise<postgres.Sql> {
  locker = postgres(url, { max: 1, onnotice: () => undefined });
  await locker.unsafe('BEGIN');
  await locker.unsafe('LOCK TABLE positions IN ACCESS EXCLUSIVE MODE');
  return locker;
}

/**
 * The backends waiting for the lock on this test's positions table: once there are `n`, the report is waiting in
 * the database. Looked at for 5 s at most (with the synchronous store nothing runs here until the report ended).
 */
async function waitersOnPositions(n: number): Promise<number[]> {
  const watcher = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    let pids: number[] = [];
    for (let i = 0; i < 100 && pids.length < n; i++) {
      const rows = await watcher.unsafe(
        "SELECT pid FROM pg_locks WHERE relation = 'positions'::regclass AND NOT granted ORDER BY pid",
      );
      pids = (rows as unknown as Array<{ pid: number }>).map((r) => r.pid);
      if (pids.length < n) await new Promise((r) => setTimeout(r, 50));
    }
    return pids;
  } finally {
    await watcher.end({ timeout: 1 });
  }
}

const tripsOf = (ids: number[]) =>
  `/api/reports/trips?${ids.map((id) => `deviceId=${id}`).join('&')}` +
  '&from=2026-02-01T00:00:00.000Z&to=2026-02-01T12:00:00.000Z';

describe('reports on the read pool', () => {
  it('a cheap request is answered while a report waits on PostgreSQL', async () => {
    const lock = await lockPositions();
    const order: string[] = [];
    const report = api(t.app, t.admin, 'GET', tripsOf(deviceIds)).then((res) => {
      order.push('report');
      return res;
    });
    await waitersOnPositions(1);
    const health = await api(t.app, null, 'GET', '/api/health');
    order.push('health');
    expect(health.statusCode).toBe(200);
    await lock.unsafe('ROLLBACK');
    const res = await report;
    expect(order).toEqual(['health', 'report']);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('a report whose pooled connections are terminated answers 503, translated; the next one works', async () => {
    const lock = await lockPositions();
    const report = api(t.app, t.admin, 'GET', tripsOf(deviceIds));
    const pids = await waitersOnPositions(deviceIds.length);
    expect(pids.length).toBeGreaterThan(0);
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await admin.unsafe('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
    } finally {
      await admin.end({ timeout: 1 });
    }
    const res = await report;
    await lock.unsafe('ROLLBACK');
    expect(res.statusCode).toBe(503);
    expect(res.body).toBe(
      `WebApplicationException: ${formatMessage('traccarErrors.databaseUnavailable', 'pt-BR')}`,
    );
    let again = await api(t.app, t.admin, 'GET', tripsOf(deviceIds));
    // the pool connects again in the background: a moment may pass before every connection is back
    for (let i = 0; i < 100 && again.statusCode === 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await api(t.app, t.admin, 'GET', tripsOf(deviceIds));
    }
    expect(again.statusCode).toBe(200);
  });
});
