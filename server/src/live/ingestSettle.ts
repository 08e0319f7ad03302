// Waiting for the reports a route must see stored (issue #30, session 33): on PostgreSQL the position API, the
// catch-up, the accumulators and the shutdown used to store the queue with flushNow, the store's own synchronous
// transaction through the synchronous worker, retired in session 38 (the main thread waiting, a pooled batch in
// flight overtaken). They now wait, without holding the main thread, until every report queued or in flight when they
// asked is answered by its pooled batch (live/pooledBatches.ts): stored, or refused as a whole.
import type { IngestResult } from './types.ts';

/** A queued report as the live core holds it (ingest.ts Pending). */
interface Waiting {
  resolve: (r: IngestResult) => void;
}

export class IngestSettleWaits<T extends Waiting> {
  /** The batches taken from the queue and not answered yet. */
  private readonly flying = new Set<T[]>();

  /** A batch taken from the queue (before its reads). */
  started(batch: T[]): void {
    this.flying.add(batch);
  }

  /** A batch answered (stored or refused). */
  answered(batch: T[]): void {
    this.flying.delete(batch);
  }

  /** Whether a report is queued (`queue`) or in a batch in flight. */
  busy(queue: readonly T[]): boolean {
    return queue.length > 0 || this.flying.size > 0;
  }

  /**
   * Resolves once every report in `queue` now and in the batches in flight now is answered (later reports are not
   * waited for, so a flood cannot hold the caller). Each report's own answer is kept and delivered first.
   */
  until(queue: readonly T[]): Promise<void> {
    const items: T[] = [...queue];
    for (const batch of this.flying) for (const item of batch) items.push(item);
    return Promise.all(
      items.map(
        (item) =>
          new Promise<void>((done) => {
            const resolve = item.resolve;
            item.resolve = (r) => {
              resolve(r);
              done();
            };
          }),
      ),
    ).then(() => undefined);
  }
}
