// PUT /api/devices/:id/accumulators (live/positions.ts): the latest position's totalDistance and hours replaced in
// place (one position per device and fix time, issue #30), stored and pushed. Session 33: the queue waited for
// without the main thread (LiveCore.settle), the attributes written as one autocommitted statement
// (db/repos/positions.ts setPositionAttributes), no longer the synchronous store's prepared statement.
import type { Attributes, Position } from '@rastro/domain';
import type { SqlDatabase } from '../db/sql.ts';
import { setPositionAttributes } from '../db/repos/positions.ts';

/** What the accumulators need of the live core (live/ingest.ts). */
export interface AccumulatorsCore {
  settle(): Promise<void>;
  latestPositionAsync(deviceId: number): Promise<Position | null>;
  /** `to` becomes the device's latest position in memory if `from` still is (published when `publish`). */
  replaceLatest(deviceId: number, from: Position, to: Position, publish: boolean): boolean;
}

/** Gives the latest position new totalDistance/hours; false when the device has no position. */
export async function setLiveAccumulators(
  core: AccumulatorsCore,
  db: SqlDatabase,
  deviceId: number,
  totalDistance: number | null | undefined,
  hours: number | null | undefined,
): Promise<boolean> {
  await core.settle();
  const last = await core.latestPositionAsync(deviceId);
  if (!last) return false;
  const attrs: Record<string, unknown> = { ...last.attributes };
  if (typeof totalDistance === 'number') attrs.totalDistance = totalDistance;
  if (typeof hours === 'number') attrs.hours = hours;
  const position: Position = { ...last, attributes: attrs as Attributes };
  // in memory first, so a batch computed while the write runs counts from the new values
  core.replaceLatest(deviceId, last, position, false);
  try {
    await setPositionAttributes(db, last.id, JSON.stringify(attrs));
  } catch (err) {
    core.replaceLatest(deviceId, position, last, false); // not stored: the memory as the store
    throw err;
  }
  core.replaceLatest(deviceId, position, position, true);
  return true;
}
