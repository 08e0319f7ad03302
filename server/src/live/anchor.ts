// Anchor alarms (SPEC §3, §4): an anchor is a 150 m circle geofence with attributes isAnchor and deviceId,
// linked to its device. When the device leaves it, the pipeline emits geofenceExit; this turns that exit into an
// `alarm` event (attributes.alarm 'tow' when the ignition is not on — the vehicle was moved without being
// started — else 'geofence'), which the notification rules (type alarm) deliver like any other alarm.
import type { Event, Position } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import type { LiveCore } from './ingest.ts';
import { storeEventIn } from './statusSweep.ts';

export type AnchorAlarm = 'geofence' | 'tow';

const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

export function isAnchorAttributes(attrs: Record<string, unknown> | null | undefined): boolean {
  return !!attrs && truthy(attrs.isAnchor);
}

/** The alarm for a vehicle that left its anchor: ignition on ⇒ 'geofence' (driven away), otherwise 'tow'. */
export function anchorAlarmFor(positionAttributes: Record<string, unknown> | null | undefined): AnchorAlarm {
  return truthy(positionAttributes?.ignition) ? 'geofence' : 'tow';
}

/** The geofence exits among `events` (those an anchor may have raised). */
const geofenceExits = (events: readonly Event[]) =>
  events.filter((e) => e.type === 'geofenceExit' && e.geofenceId > 0);

/**
 * The anchor exits among `events`: geofenceExit of an isAnchor geofence that belongs to that device. The geofences
 * as set now: the live cache read on the pool when stale (freshAsync; PostgreSQL: the main thread free, issue #30).
 */
export async function anchorExits(live: LiveCore, events: readonly Event[]): Promise<Event[]> {
  const exits = geofenceExits(events);
  if (!exits.length) return [];
  const cache = await live.cache.freshAsync();
  return exits.filter((e) => {
    const g = cache.geofences.get(e.geofenceId);
    if (!g || !isAnchorAttributes(g.attrs)) return false;
    const owner = Number(g.attrs.deviceId);
    // an anchor without a deviceId attribute still counts for the device it is linked to
    return !Number.isFinite(owner) || owner <= 0 || owner === e.deviceId;
  });
}

/** Stores and publishes the anchor alarms of these exits (their own transaction, emitEvents). */
async function raiseAnchorAlarms(live: LiveCore, exits: readonly Event[]): Promise<void> {
  if (!exits.length) return;
  const positions = new Map<number, Position | null>();
  for (const e of exits) positions.set(e.deviceId, await live.latestPositionAsync(e.deviceId));
  await live.emitEvents(async (tx) => {
    const out: Event[] = [];
    for (const e of exits) {
      const position = positions.get(e.deviceId) ?? null;
      out.push(
        await storeEventIn(tx, 'alarm', e.deviceId, position, {
          positionId: e.positionId,
          eventTime: e.eventTime,
          geofenceId: e.geofenceId,
          attributes: { alarm: anchorAlarmFor(position?.attributes), anchor: true },
        }),
      );
    }
    return out;
  });
}

/** Subscribes to the live core (until the app closes); returns the unsubscribe function. */
export function registerAnchorAlarms(ctx: AppContext, live: LiveCore): () => void {
  let active = true;
  const off = live.subscribe({
    events(events) {
      const exits = geofenceExits(events);
      if (!exits.length) return;
      // emitted after the current batch is published, as their own batch (listeners see them like any event)
      setImmediate(() => {
        if (!active) return;
        anchorExits(live, exits)
          .then((anchored) => (active ? raiseAnchorAlarms(live, anchored) : undefined))
          .catch((err: unknown) => ctx.log.error({ err }, 'anchor alarm failed'));
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
