// The events the live core stores outside its position batches (ingest.ts emitEvents: the status sweep, command
// results, anchor alarms, inactivity, the QR driver) and the status sweep itself. Since session 34 (issue #30) they
// are written in one inTransaction on the pool — PostgreSQL's write client, never a synchronous connection —
// so the sweep's device-status writes no longer hold the main thread while they wait for a row lock.
import type { Event, Position } from '@rastro/domain';
import type { SqlDatabase } from '../db/sql.ts';
import { insertLiveEventAsync, setDeviceStatusAsync } from '../db/repos/ingest.ts';
import { lockUnheldDevicesAsync } from '../db/repos/sweepLocks.ts';
import type { LiveCache } from './cache.ts';
import type { DevState } from './deviceStates.ts';
import { eventFromRow, iso, type EventDbRow } from './json.ts';

/** An event's row as stored, but its id (its eventTime as given: the API form keeps it; the row's is ISO). */
export function eventRowOf(type: string, deviceId: number, position: Position | null, extra: Partial<Event>) {
  return {
    type,
    eventTime: extra.eventTime ?? position?.deviceTime ?? iso(Date.now()),
    deviceId,
    positionId: extra.positionId ?? position?.id ?? 0,
    geofenceId: extra.geofenceId ?? 0,
    maintenanceId: extra.maintenanceId ?? 0,
    attributes: JSON.stringify(extra.attributes ?? {}),
  };
}

/** An event inserted on an emitEvents transaction's handle `tx` (no main-thread wait): its API form. */
export async function storeEventIn(
  tx: SqlDatabase,
  type: string,
  deviceId: number,
  position: Position | null,
  extra: Partial<Event> = {},
): Promise<Event> {
  const ev = eventRowOf(type, deviceId, position, extra);
  const id = await insertLiveEventAsync(tx, { ...ev, eventTime: new Date(ev.eventTime).toISOString() });
  return eventFromRow({ ...ev, id } as EventDbRow);
}

/** What the sweep needs of the live core. */
export interface StatusSweepCore {
  /** The live cache read on the pool (event.status.enable as set now). */
  freshAsync(): Promise<LiveCache>;
  statusEvents(): boolean;
  /** ingest.ts emitEvents: `make` in one transaction, the events published once committed. */
  emit(make: (tx: SqlDatabase) => Promise<Event[]>, changedDevices: number[]): Promise<Event[]>;
  eventTime: string;
}

/**
 * Devices online whose last update is before `limit` turn "unknown" (never "offline" for HTTP protocols): their
 * status and deviceUnknown events in one transaction. If it fails none is stored and they are online again in
 * memory (swept next time); the error is passed on. A device that reported while the cache was read is skipped, and
 * so is one whose row another transaction holds (a batch writing it: sweepLocks.ts), so no lock is waited for.
 */
export async function sweepStatuses(
  states: ReadonlyMap<number, DevState>,
  limit: number,
  core: StatusSweepCore,
): Promise<void> {
  const silent = (st: DevState | undefined) =>
    st?.status === 'online' && !!st.lastUpdate && st.lastUpdate.getTime() < limit;
  if (![...states.values()].some(silent)) return;
  await core.freshAsync();
  const stale = [...states].filter(([, st]) => silent(st)).map(([id]) => id);
  if (stale.length === 0) return;
  for (const id of stale) states.get(id)!.status = 'unknown';
  const withEvents = core.statusEvents();
  const swept: number[] = []; // filled in the transaction: the devices published are those stored unknown
  try {
    await core.emit(async (tx) => {
      // the rows locked first, in id order, skipping any another transaction holds (sweepLocks.ts): the sweep never
      // waits for a device row, so a pooled batch writing the same devices cannot deadlock with it
      const locked = await lockUnheldDevicesAsync(tx, stale);
      const out: Event[] = [];
      for (const id of locked) {
        await setDeviceStatusAsync(tx, id, 'unknown');
        if (withEvents)
          out.push(await storeEventIn(tx, 'deviceUnknown', id, null, { eventTime: core.eventTime }));
      }
      swept.push(...locked);
      return out;
    }, swept);
  } catch (err) {
    backOnline(states, stale);
    throw err;
  }
  // a device whose row was held (a batch writing it now) stays online: swept next time if still silent
  const stored = new Set(swept);
  backOnline(
    states,
    stale.filter((id) => !stored.has(id)),
  );
}

/** Devices marked unknown in memory for a sweep that did not store them: online again. */
function backOnline(states: ReadonlyMap<number, DevState>, ids: readonly number[]): void {
  for (const id of ids) {
    const st = states.get(id);
    if (st?.status === 'unknown') st.status = 'online';
  }
}
