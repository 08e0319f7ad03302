// deviceInactive: a sweep over the devices that have reported at least once. A device silent for its
// `deviceInactivityStart` (ms, device → group chain → server) gets one event; with `deviceInactivityPeriod` (ms)
// set, one more each period while it stays silent. Each window fires at most once (a late sweep fires only the
// current window), a new report starts over, and after a restart the last stored deviceInactive event counts.
import type { SqlDatabase } from '../../db/sql.ts';
import { lastEventOfType } from '../../db/repos/events.ts';
import type { Event, Position } from '@rastro/domain';
import { parseJson, type LiveCache } from '../cache.ts';
import { iso } from '../json.ts';

/** What the sweep needs of the live core (ingest.ts's LiveCore is one), so this file never imports the core. */
export interface InactivityCore {
  readonly cache: Pick<LiveCache, 'fresh'>;
  storeEvent(type: string, deviceId: number, position: Position | null, extra?: Partial<Event>): Event;
  emitEvents(make: () => Event[], changedDevices?: number[]): Event[];
}

interface Fired {
  lastUpdate: number;
  /** Index of the last window that fired: 0 at lastUpdate + start, then one per period. */
  window: number;
}

export class InactivityMonitor {
  private readonly fired = new Map<number, Fired>();

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

  /** Raises the deviceInactive events due at `now`; returns them (stored and published). */
  sweep(now: number = this.clock()): Event[] {
    const cache = this.core.cache.fresh();
    const due: Array<{ deviceId: number; lastUpdate: number; window: number }> = [];
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
      let fired = this.fired.get(d.id);
      if (fired && fired.lastUpdate !== lastUpdate) fired = undefined;
      fired ??= this.fromStore(d.id, lastUpdate, threshold, period);
      if (fired && fired.window >= window) continue;
      due.push({ deviceId: d.id, lastUpdate, window });
    }
    if (due.length === 0) return [];
    return this.core.emitEvents(() =>
      due.map(({ deviceId, lastUpdate, window }) => {
        this.fired.set(deviceId, { lastUpdate, window });
        return this.core.storeEvent('deviceInactive', deviceId, null, {
          eventTime: iso(now),
          attributes: { lastUpdate },
        });
      }),
    );
  }

  /** The window of the device's last stored deviceInactive event, if it belongs to this silence. */
  private fromStore(
    deviceId: number,
    lastUpdate: number,
    threshold: number,
    period: number,
  ): Fired | undefined {
    const row = lastEventOfType(this.db(), deviceId, 'deviceInactive');
    if (!row || parseJson(row.attributes).lastUpdate !== lastUpdate) return undefined;
    const at = Date.parse(row.eventTime);
    if (!(at >= threshold)) return undefined;
    const fired = { lastUpdate, window: period > 0 ? Math.floor((at - threshold) / period) : 0 };
    this.fired.set(deviceId, fired);
    return fired;
  }
}
