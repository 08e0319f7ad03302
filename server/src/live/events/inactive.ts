// deviceInactive: a sweep over the devices that have reported at least once. A device silent for its
// `deviceInactivityStart` (ms, device → group chain → server) gets one event; with `deviceInactivityPeriod` (ms)
// set, one more each period while it stays silent. Each window fires at most once (a late sweep fires only the
// current window), a new report starts over, and after a restart the last stored deviceInactive event counts.
import type { SqlDatabase } from '../../db/sql.ts';
import { lastEventOfType } from '../../db/repos/events.ts';
import type { Event } from '@rastro/domain';
import { parseJson, type LiveCache } from '../cache.ts';
import { mapBounded } from '../bounded.ts';
import { iso } from '../json.ts';
import { storeEventIn } from '../statusSweep.ts';

/** What the sweep needs of the live core (ingest.ts's LiveCore is one), so this file never imports the core. */
export interface InactivityCore {
  readonly cache: Pick<LiveCache, 'freshAsync'>;
  /** Stores `make`'s events in one transaction on the pool (its handle `tx`), then publishes them. */
  emitEvents(make: (tx: SqlDatabase) => Promise<Event[]>, changedDevices?: number[]): Promise<Event[]>;
}

interface Fired {
  lastUpdate: number;
  /** Index of the last window that fired: 0 at lastUpdate + start, then one per period. */
  window: number;
}

/** A device past its inactivity start at the sweep's time. */
interface Due {
  deviceId: number;
  lastUpdate: number;
  threshold: number;
  period: number;
  window: number;
  /** Whether the core held lastUpdate in memory (a report meanwhile then changes it). */
  held: boolean;
}

/** The stored-event reads of one sweep at once (the read pool keeps connections for the API). */
const STORE_READS_AT_ONCE = 2;

export class InactivityMonitor {
  private readonly fired = new Map<number, Fired>();
  /** The sweep in progress (its reads on the pool): the next one runs after it. */
  private running: Promise<unknown> | null = null;
  /** A sweep already waits for the running one: a further one answers none (the timer's next tick sweeps). */
  private waiting = false;

  /**
   * @param lastUpdateOf the live lastUpdate of a device (undefined when the core does not hold it in memory;
   *   the stored device row is used then).
   * @param clock the sweep's clock when called without a time (tests inject one).
   */
  constructor(
    private readonly core: InactivityCore,
    private readonly db: () => SqlDatabase,
    private readonly lastUpdateOf: (deviceId: number) => Date | null | undefined,
    public clock: () => number = Date.now,
  ) {}

  /**
   * Raises the deviceInactive events due at `now`; resolves to them (stored and published). Its reads — the live
   * cache when stale and the last stored deviceInactive of a device it does not remember — run on the pool
   * (PostgreSQL: the timer never holds the main thread, issue #30). Sweeps run one after the other (each sees what
   * the previous fired); while one runs and another waits, a third answers none.
   */
  async sweep(now: number = this.clock()): Promise<Event[]> {
    if (this.running) {
      if (this.waiting) return [];
      this.waiting = true;
      await this.running.catch(() => undefined);
      this.waiting = false;
    }
    const run = this.sweepAt(now);
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }

  private async sweepAt(now: number): Promise<Event[]> {
    const cache = await this.core.cache.freshAsync();
    const due: Due[] = [];
    const unknown: Due[] = [];
    for (const d of cache.devices.values()) {
      const live = this.lastUpdateOf(d.id);
      const lastUpdate =
        live !== undefined ? (live?.getTime() ?? NaN) : d.lastUpdate ? Date.parse(d.lastUpdate) : NaN;
      if (!Number.isFinite(lastUpdate) || d.disabled) continue;
      const start = cache.deviceNumber(d.id, 'deviceInactivityStart') ?? 0;
      if (!(start > 0)) continue;
      const threshold = lastUpdate + start;
      if (now < threshold) continue;
      const period = cache.deviceNumber(d.id, 'deviceInactivityPeriod') ?? 0;
      const window = period > 0 ? Math.floor((now - threshold) / period) : 0;
      const entry = { deviceId: d.id, lastUpdate, threshold, period, window, held: live !== undefined };
      const fired = this.fired.get(d.id);
      if (fired && fired.lastUpdate === lastUpdate) {
        if (fired.window < window) due.push(entry);
      } else unknown.push(entry);
    }
    const stored = await mapBounded(unknown, (u) => this.fromStore(u), STORE_READS_AT_ONCE);
    unknown.forEach((u, i) => {
      const fired = stored[i];
      if (!fired || fired.window < u.window) due.push(u);
    });
    // a device that reported while the store was read starts over (its new lastUpdate is not past the threshold)
    const still = due.filter((u) => !u.held || this.lastUpdateOf(u.deviceId)?.getTime() === u.lastUpdate);
    if (still.length === 0) return [];
    const events = await this.core.emitEvents(async (tx) => {
      const out: Event[] = [];
      for (const { deviceId, lastUpdate } of still)
        out.push(
          await storeEventIn(tx, 'deviceInactive', deviceId, null, {
            eventTime: iso(now),
            attributes: { lastUpdate },
          }),
        );
      return out;
    });
    for (const { deviceId, lastUpdate, window } of still) this.fired.set(deviceId, { lastUpdate, window });
    return events;
  }

  /** The window of the device's last stored deviceInactive event, if it belongs to this silence. */
  private async fromStore({ deviceId, lastUpdate, threshold, period }: Due): Promise<Fired | undefined> {
    const row = await lastEventOfType(this.db(), deviceId, 'deviceInactive');
    if (!row || parseJson(row.attributes).lastUpdate !== lastUpdate) return undefined;
    const at = Date.parse(row.eventTime);
    if (!(at >= threshold)) return undefined;
    const fired = { lastUpdate, window: period > 0 ? Math.floor((at - threshold) / period) : 0 };
    this.fired.set(deviceId, fired);
    return fired;
  }
}
