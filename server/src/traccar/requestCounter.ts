// The API request counter of the statistics (request_stats, per UTC hour): counted in memory and written once a
// second as one upsert per hour instead of one waited write per request (issue #30: during an ingestion flood on
// PostgreSQL every waited write queues behind the batches on the one connection). The statistics read flushes it
// first; a failed write keeps the counts for the next second; the app's close writes what is left.
import type { AppContext } from '../context.ts';
import { addRequests, addRequestsPosted } from '../db/repos/audit.ts';

const FLUSH_MS = 1000;

class RequestCounter {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** Upserts posted and not answered yet (PostgreSQL). */
  private posting = 0;

  constructor(private readonly ctx: AppContext) {
    ctx.onClose.push(() => this.flush());
  }

  /** One more request in its UTC hour (`YYYY-MM-DDTHH`). */
  count(hour: string): void {
    this.pending.set(hour, (this.pending.get(hour) ?? 0) + 1);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush(true);
    }, FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Writes the counts held; on failure (store unavailable) they are kept and written at the next flush. The timer's
   * flush (`posted`) does not wait on PostgreSQL: its upserts are posted, so the main thread never waits for them
   * behind an ingestion batch's COMMIT on the one connection (issue #30); the statistics read and the close wait.
   */
  flush(posted = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const db = this.ctx.store.sql;
    if (!posted && this.posting > 0) db.settlePosted?.(); // the counts posted are written before a read
    if (this.pending.size === 0) return;
    const counts = [...this.pending];
    this.pending.clear();
    if (posted && db.runPosted) {
      for (const [hour, n] of counts) {
        this.posting++;
        addRequestsPosted(db, hour, n, (err) => {
          this.posting--;
          if (!err) return;
          this.pending.set(hour, (this.pending.get(hour) ?? 0) + n);
          this.ctx.log.warn({ err }, 'request counts not written, kept for the next second');
        });
      }
      return;
    }
    try {
      db.transaction(() => {
        for (const [hour, n] of counts) addRequests(db, hour, n);
      })();
    } catch (err) {
      for (const [hour, n] of counts) this.pending.set(hour, (this.pending.get(hour) ?? 0) + n);
      this.ctx.log.warn({ err }, 'request counts not written, kept for the next second');
    }
  }
}

const counters = new WeakMap<AppContext, RequestCounter>();

/** The app's request counter (made on first use). */
export function requestCounter(ctx: AppContext): RequestCounter {
  let c = counters.get(ctx);
  if (!c) counters.set(ctx, (c = new RequestCounter(ctx)));
  return c;
}
