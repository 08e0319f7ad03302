// The API request counter of the statistics (request_stats, per UTC hour): counted in memory and written once a
// second instead of one waited write per request (issue #30). On PostgreSQL the timer's write is ONE statement on
// the API's write client (session 31: off the synchronous store and its worker; session 32: off the read pool, where
// it waited for the other process's upsert of the same row on a connection the API's reads needed), the main thread never
// waits for it; the statistics read awaits a flush of what is held and the writes on their way (session 33: no
// synchronous write left, SQLite's included); a failed write keeps the counts for the next second; the app's close
// writes what is left.
import type { AppContext } from '../context.ts';
import { addRequestsAsync } from '../db/repos/audit.ts';

const FLUSH_MS = 1000;

class RequestCounter {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** The pooled writes on their way (PostgreSQL). */
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly ctx: AppContext) {
    ctx.onClose.push(async () => {
      await this.settled();
      await this.flush();
    });
  }

  /** Resolves once the pooled writes on their way are answered (the close, tests). */
  async settled(): Promise<void> {
    while (this.writing.size) await Promise.all(this.writing);
  }

  /** One more request in its UTC hour (`YYYY-MM-DDTHH`). */
  count(hour: string): void {
    this.pending.set(hour, (this.pending.get(hour) ?? 0) + 1);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush(); // never rejects: a failed write keeps its counts (flush)
    }, FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Writes the counts held as ONE upsert without the main thread waiting, on both stores (issue #30, session 33: the
   * SQLite path and the statistics read's flush no longer write synchronously); resolves once it is answered. On
   * failure (store unavailable) the counts are kept and written at the next flush.
   */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const counts = [...this.pending];
    this.pending.clear();
    const keep = (err: unknown) => {
      for (const [hour, n] of counts) this.pending.set(hour, (this.pending.get(hour) ?? 0) + n);
      this.ctx.log.warn({ err }, 'request counts not written, kept for the next second');
    };
    const write: Promise<void> = addRequestsAsync(this.ctx.store.sql, counts)
      .catch(keep)
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
    await write;
  }
}

const counters = new WeakMap<AppContext, RequestCounter>();

/** The app's request counter (made on first use). */
export function requestCounter(ctx: AppContext): RequestCounter {
  let c = counters.get(ctx);
  if (!c) counters.set(ctx, (c = new RequestCounter(ctx)));
  return c;
}
