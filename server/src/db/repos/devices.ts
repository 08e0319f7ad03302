// Devices (table devices) beyond the generic catalogue CRUD of objects.ts: lookups by id or unique id, the count
// the device caps read, and what goes with a removed device.
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, row, rows, write } from './query.ts';

/** The devices whose id is one of `ids` or whose unique id is one of `uniqueIds`. */
export function deviceIdsByIdsOrUniqueIds(
  db: SqlDatabase,
  ids: readonly number[],
  uniqueIds: readonly string[],
): number[] {
  return rows(
    db,
    qb(db)
      .selectFrom('devices')
      .select('id')
      .where((eb) => eb.or([anyOf(db, 'id', ids), anyOf(db, 'uniqueId', uniqueIds)])),
  ).map((r) => r.id);
}

export function countDevices(db: SqlDatabase): number {
  const found = row(
    db,
    qb(db)
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
  return Number(found?.n ?? 0);
}

/** Removes a device's positions, events and queued commands (the device itself is removed by the CRUD). */
export function deleteDeviceHistory(db: SqlDatabase, deviceId: number): void {
  write(db, qb(db).deleteFrom('positions').where('deviceId', '=', deviceId));
  write(db, qb(db).deleteFrom('events').where('deviceId', '=', deviceId));
  write(db, qb(db).deleteFrom('queued_commands').where('deviceId', '=', deviceId));
}
