// Geofence locks (SPEC §3 Geofence "lock on enter, lock on exit"): a geofence whose attributes hold
// `{ns}.lockOnEnter` / `{ns}.lockOnExit` true blocks the engine (engineStop) of a device that enters / leaves it.
// The command goes out like any other: sent live when the device has a channel, else queued for its next report.
import type { Command, Event } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { deliverCommand } from './commands.ts';
import type { LiveCore } from './ingest.ts';

const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

/** The geofence crossings among `events` (those a lock may ask for). */
const crossingsOf = (events: readonly Event[]) =>
  events.filter((e) => (e.type === 'geofenceEnter' || e.type === 'geofenceExit') && e.geofenceId > 0);

/**
 * The geofence events among `events` whose geofence asks for a lock (enter or exit). The geofences as set now: the
 * live cache read on the pool when stale (freshAsync; PostgreSQL: the main thread free, issue #30).
 */
export async function lockingEvents(live: LiveCore, ns: string, events: readonly Event[]): Promise<Event[]> {
  const crossings = crossingsOf(events);
  if (!crossings.length) return [];
  const cache = await live.cache.freshAsync();
  return crossings.filter((e) => {
    const attrs = cache.geofences.get(e.geofenceId)?.attrs;
    if (!attrs) return false;
    return truthy(attrs[e.type === 'geofenceEnter' ? `${ns}.lockOnEnter` : `${ns}.lockOnExit`]);
  });
}

/** Sends engineStop to each device with a locking crossing: one command per device and batch. */
async function sendLocks(ctx: AppContext, live: LiveCore, crossings: readonly Event[]): Promise<void> {
  const locks = await lockingEvents(live, ctx.config.ns, crossings);
  const devices = new Set(locks.map((e) => e.deviceId));
  for (const deviceId of devices) {
    const e = locks.find((x) => x.deviceId === deviceId)!;
    const command: Command = {
      id: 0,
      deviceId,
      type: 'engineStop',
      textChannel: false,
      description: null,
      attributes: { geofenceId: e.geofenceId, reason: e.type },
    };
    await deliverCommand(live, deviceId, command).catch((err: unknown) =>
      ctx.log.warn({ err, deviceId }, 'geofence lock command failed'),
    );
  }
}

/** Subscribes to the live core (until the app closes); returns the unsubscribe function. */
export function registerGeofenceLocks(ctx: AppContext, live: LiveCore): () => void {
  let active = true;
  const off = live.subscribe({
    events(events) {
      const crossings = crossingsOf(events);
      if (!crossings.length) return;
      // after the current batch is published (the command goes out like any other)
      setImmediate(() => {
        if (!active) return;
        sendLocks(ctx, live, crossings).catch((err: unknown) =>
          ctx.log.warn({ err }, 'geofence lock failed'),
        );
      });
    },
  });
  const stop = () => {
    active = false;
    off();
  };
  ctx.onClose.push(async () => stop());
  return stop;
}
