// Which queued reports a pooled batch takes (issue #30, live/pooledBatches.ts): only devices with no batch in flight,
// each device's reports in their order; a refused batch's devices' reports queued meanwhile are taken out with it.
import { describe, expect, it } from 'vitest';
import type { BatchRows, PooledIngest } from '../../src/db/repos/ingestPooled.ts';
import { LANE_FILL, LANE_WAIT_MS, PooledLanes } from '../../src/live/pooledBatches.ts';

/** A pooled write path whose writes wait until `release` (nothing reaches a store). */
function heldIngest() {
  let release: (err?: Error) => void = () => undefined;
  const ingest = {
    begin: () => ({ ids: { positions: [], events: [] } }) as unknown as BatchRows,
    write: () => new Promise<void>((resolve, reject) => (release = (err) => (err ? reject(err) : resolve()))),
    settledAfterMs: 0,
    lanes: 2,
  } as unknown as PooledIngest;
  return { ingest, release: (err?: Error) => release(err) };
}

const r = (deviceId: number, n: number) => ({ deviceId, n });

describe('pooled lanes', () => {
  it('takes the reports of devices not in flight, in order; the rest stay queued in order', async () => {
    const { ingest, release } = heldIngest();
    const lanes = new PooledLanes(ingest, undefined, 1); // any number of reports starts a batch
    const queue = [r(1, 1), r(2, 1)];
    const first = lanes.take(queue, 10);
    expect(first.map((q) => q.deviceId)).toEqual([1, 2]);
    const answered: unknown[] = [];
    lanes.run(
      [1, 2],
      async () => undefined,
      (err) => answered.push(err),
      () => undefined,
    );
    queue.push(r(1, 2), r(3, 1), r(2, 2), r(3, 2));
    expect(lanes.take(queue, 10)).toEqual([r(3, 1), r(3, 2)]);
    expect(queue).toEqual([r(1, 2), r(2, 2)]);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toEqual([null]);
    expect(lanes.running).toBe(0);
    expect(lanes.take(queue, 1)).toEqual([r(1, 2)]); // at most `size`: the rest keeps its order
    expect(queue).toEqual([r(2, 2)]);
  });

  it('with a batch in flight, fewer than LANE_FILL reports wait for its answer; with none, any starts', async () => {
    const { ingest, release } = heldIngest();
    const lanes = new PooledLanes(ingest);
    const queue = [r(1, 1)];
    expect(lanes.take(queue, 2000)).toEqual([r(1, 1)]); // nothing in flight: a lone report starts at once
    const answered: unknown[] = [];
    lanes.run(
      [1],
      async () => undefined,
      (err) => answered.push(err),
      () => undefined,
    );
    for (let d = 2; d <= LANE_FILL; d++) queue.push(r(d, 1)); // LANE_FILL - 1 reports of free devices
    queue.push(r(1, 2)); // and one of the device in flight, which does not count
    expect(lanes.take(queue, 2000)).toEqual([]);
    expect(queue).toHaveLength(LANE_FILL); // all still queued, in order
    expect(lanes.take(queue, 3)).toEqual([r(2, 1), r(3, 1), r(4, 1)]); // a full batch of `size` starts
    queue.push(r(LANE_FILL + 1, 1), r(LANE_FILL + 2, 1), r(LANE_FILL + 3, 1), r(LANE_FILL + 4, 1));
    const ready = lanes.take(queue, 2000); // LANE_FILL free devices' reports again: a batch starts
    expect(ready.map((q) => q.deviceId)).toEqual(Array.from({ length: LANE_FILL }, (_, i) => i + 5));
    expect(queue).toEqual([r(1, 2)]);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toEqual([null]);
    expect(lanes.running).toBe(0);
    expect(lanes.take(queue, 2000)).toEqual([r(1, 2)]); // none in flight: the last report starts alone
  });

  it('fewer than LANE_FILL start anyway once they waited LANE_WAIT_MS (a batch held in PostgreSQL)', async () => {
    let woken = 0;
    const lanes = new PooledLanes(heldIngest().ingest, () => woken++);
    lanes.run(
      [1],
      () => new Promise<void>(() => undefined), // held: never answered
      () => undefined,
      () => undefined,
    );
    const queue = [r(2, 1)];
    expect(lanes.take(queue, 2000)).toEqual([]);
    expect(woken).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, LANE_WAIT_MS + 30));
    expect(woken).toBe(1);
    expect(lanes.take(queue, 2000)).toEqual([r(2, 1)]);
    expect(queue).toEqual([]);
  });

  it("a refused batch: its devices' queued reports are taken out, the others stay", () => {
    const lanes = new PooledLanes(heldIngest().ingest);
    const queue = [r(1, 2), r(3, 1), r(2, 2), r(1, 3)];
    expect(lanes.drop(queue, new Set([1, 2]))).toEqual([r(1, 2), r(2, 2), r(1, 3)]);
    expect(queue).toEqual([r(3, 1)]);
  });

  it('a failed write is answered with its error, and the devices are free again', async () => {
    const { ingest, release } = heldIngest();
    const lanes = new PooledLanes(ingest);
    const answered: unknown[] = [];
    lanes.run(
      [7],
      async () => undefined,
      (err) => answered.push(err),
      () => undefined,
    );
    await new Promise((resolve) => setImmediate(resolve));
    release(new Error('refused'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(String(answered[0])).toContain('refused');
    expect(lanes.take([r(7, 1)], 10)).toEqual([r(7, 1)]);
  });

  it('as many batches at once as the ingestion pool has connections (its lanes)', () => {
    const lanes = new PooledLanes(heldIngest().ingest);
    const idle = () => new Promise<void>(() => undefined);
    lanes.run(
      [1],
      idle,
      () => undefined,
      () => undefined,
    );
    expect(lanes.open).toBe(true);
    lanes.run(
      [2],
      idle,
      () => undefined,
      () => undefined,
    );
    expect(lanes.open).toBe(false);
    expect(lanes.running).toBe(2);
  });
});
