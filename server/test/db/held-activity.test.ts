// The hours of activity of PostgreSQL's stored batches, held in memory and added as one statement (issue #30,
// session 47; db/repos/ingestPooled.ts HeldActivity): summed per (device, hour, driver), written in that order, held
// again when a write fails, written by the timer once the hold is over. The pool here records what it is asked;
// the PostgreSQL leg (live/batch-statements.pg.test.ts, live/insights.test.ts) checks the rows in the store.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyStep } from '@rastro/domain';
import type { PgPool } from '../../src/db/pool.ts';
import { ACTIVITY_HOLD_MS, HeldActivity } from '../../src/db/repos/ingestPooled.ts';
import type { ActivityRow } from '../../src/db/repos/ingestBatch.ts';

const row = (
  deviceId: number,
  hour: number,
  driver: string,
  distance: number,
  maxSpeed = 10,
): ActivityRow => ({
  ...emptyStep(),
  deviceId,
  hour,
  driver,
  distance,
  drivingMs: 1000,
  maxSpeed,
});

/** A pool that records each statement's rows, failing while `failing` is set. */
function recordingPool() {
  const writes: ActivityRow[][] = [];
  const pool = {
    failing: false,
    writes,
    all: (text: string, values: readonly unknown[]) => {
      expect(text).toMatch(/INSERT INTO activity/);
      if (pool.failing) return Promise.reject(new Error('connection lost'));
      writes.push(JSON.parse(String(values[0])) as ActivityRow[]);
      return Promise.resolve([]);
    },
  };
  return pool;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('hours of activity held', () => {
  it('sums rows of one device, hour and driver and writes them ordered by device, hour and driver', async () => {
    const pool = recordingPool();
    const held = new HeldActivity(pool as unknown as PgPool);
    held.add([row(7, 100, 'b', 5), row(3, 101, '', 1), row(7, 100, 'a', 2)]);
    held.add([row(7, 100, 'b', 4, 30), row(3, 100, '', 8)]);
    expect(held.size).toBe(4);
    await held.write();
    expect(held.size).toBe(0);
    expect(pool.writes).toHaveLength(1);
    expect(
      pool.writes[0].map((r) => [r.deviceId, r.hour, r.driver, r.distance, r.drivingMs, r.maxSpeed]),
    ).toEqual([
      [3, 100, '', 8, 1000, 10],
      [3, 101, '', 1, 1000, 10],
      [7, 100, 'a', 2, 1000, 10],
      [7, 100, 'b', 9, 2000, 30],
    ]);
    await held.write(); // nothing held: no statement
    expect(pool.writes).toHaveLength(1);
  });

  it('holds the rows of a failed write again, added to what came since, for the next write', async () => {
    const pool = recordingPool();
    const held = new HeldActivity(pool as unknown as PgPool);
    held.add([row(1, 100, '', 3)]);
    pool.failing = true;
    await expect(held.write()).rejects.toThrow('connection lost');
    expect(held.size).toBe(1);
    held.add([row(1, 100, '', 4), row(2, 100, '', 1)]);
    pool.failing = false;
    await held.write();
    expect(pool.writes).toEqual([
      [
        expect.objectContaining({ deviceId: 1, distance: 7, drivingMs: 2000 }),
        expect.objectContaining({ deviceId: 2 }),
      ],
    ]);
  });

  it('writes by itself once the hold is over, not before', async () => {
    vi.useFakeTimers();
    const pool = recordingPool();
    const held = new HeldActivity(pool as unknown as PgPool);
    held.add([row(1, 100, '', 3)]);
    await vi.advanceTimersByTimeAsync(ACTIVITY_HOLD_MS - 100);
    held.add([row(1, 100, '', 2)]); // the hold counts from the first row held
    expect(pool.writes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.writes).toEqual([[expect.objectContaining({ deviceId: 1, distance: 5 })]]);
    expect(held.size).toBe(0);
  });

  it('tells of a failed timed write and tries again after another hold', async () => {
    vi.useFakeTimers();
    const pool = recordingPool();
    const held = new HeldActivity(pool as unknown as PgPool);
    const failures: unknown[] = [];
    held.failed = (err, what) => failures.push([err, what]);
    pool.failing = true;
    held.add([row(1, 100, '', 3)]);
    await vi.advanceTimersByTimeAsync(ACTIVITY_HOLD_MS);
    expect(failures).toEqual([[new Error('connection lost'), expect.stringMatching(/not added yet/)]]);
    pool.failing = false;
    await vi.advanceTimersByTimeAsync(ACTIVITY_HOLD_MS);
    expect(pool.writes).toEqual([[expect.objectContaining({ deviceId: 1, distance: 3 })]]);
  });

  it('before a read, a failed write is told and its rows held, and the read goes on', async () => {
    const pool = recordingPool();
    const held = new HeldActivity(pool as unknown as PgPool);
    const told: string[] = [];
    held.failed = (_err, what) => told.push(what);
    held.add([row(1, 100, '', 3), row(2, 100, '', 1)]);
    pool.failing = true;
    await expect(held.writeForRead()).resolves.toBeUndefined();
    expect(told).toEqual([expect.stringMatching(/not added yet/)]);
    expect(held.size).toBe(2);
    pool.failing = false;
    await held.writeForRead();
    expect(pool.writes).toEqual([
      [expect.objectContaining({ deviceId: 1 }), expect.objectContaining({ deviceId: 2 })],
    ]);
    expect(told).toHaveLength(1);
  });

  it('as the process stops, a failed last write tells how many rows are lost and holds nothing', async () => {
    const pool = recordingPool();
    const held = new HeldActivity(pool as unknown as PgPool);
    const told: string[] = [];
    held.failed = (_err, what) => told.push(what);
    held.add([row(1, 100, '', 3), row(1, 101, '', 1), row(2, 100, 'a', 1)]);
    pool.failing = true;
    await expect(held.writeLast()).resolves.toBeUndefined();
    expect(told).toEqual([expect.stringMatching(/lost as the process stopped \(3 rows/)]);
    expect(held.size).toBe(0);
    pool.failing = false;
    await held.writeLast(); // nothing held: no statement, nothing told
    expect(pool.writes).toHaveLength(0);
    expect(told).toHaveLength(1);
  });
});
