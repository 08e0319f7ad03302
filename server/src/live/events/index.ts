// The live events CONTRACT §7 lists that the core's own handlers do not produce: fuel (after overspeed),
// maintenance and driver (last), and the deviceInactive sweep. One instance per live core; ingest.ts calls it.
import type { AppContext } from '../../context.ts';
import { driverEvents } from './driver.ts';
import { FuelTracker } from './fuel.ts';
import { InactivityMonitor, type InactivityCore } from './inactive.ts';
import { MaintenanceWatch } from './maintenance.ts';
import type { HandlerInput } from './types.ts';

export type { HandlerInput } from './types.ts';
export { InactivityMonitor } from './inactive.ts';
export { crossesBoundary } from './maintenance.ts';

export class LiveEventHandlers {
  readonly fuelTracker = new FuelTracker();
  readonly maintenanceWatch = new MaintenanceWatch(); // its maintenances come with the live cache
  readonly inactivity: InactivityMonitor;

  constructor(
    core: InactivityCore,
    private readonly ctx: () => AppContext,
    lastUpdateOf: (deviceId: number) => Date | null | undefined,
  ) {
    this.inactivity = new InactivityMonitor(core, () => ctx().store.sql, lastUpdateOf);
  }

  /** The fuel handler (CONTRACT §7: right after overspeed), for a position that became the latest. */
  fuel(input: HandlerInput): void {
    this.fuelTracker.handle(input);
  }

  /** The maintenance and driver handlers (CONTRACT §7: the last two), for a position that became the latest. */
  late(input: HandlerInput): void {
    this.maintenanceWatch.handle(input);
    driverEvents(input);
  }

  /**
   * Starts the deviceInactive sweep (run with the status sweep): its reads on the pool, its events stored and
   * published once they are in; a failure is logged, never thrown into a timer.
   */
  sweep(now?: number): void {
    this.inactivity
      .sweep(now)
      .catch((err: unknown) => this.ctx().log.error({ err }, 'inactivity sweep failed'));
  }
}
