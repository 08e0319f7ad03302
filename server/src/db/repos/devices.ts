// Devices (table devices) beyond the generic catalogue CRUD of objects.ts: lookups by id or unique id, the count
// the device caps read, and what goes with a removed device.
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, row, rows, rowsAsync, write, writeAsync } from './query.ts';

/** The devices whose id is one of `ids` or whose unique id is one of `uniqueIds`, read on the read pool. */
export async function deviceIdsByIdsOrUniqueIds(
  db: SqlDatabase,
  ids: readonly number[],
  uniqueIds: readonly string[],
): Promise<number[]> {
  const found = await rowsAsync(
    db,
    qb(db)
      .selectFrom('devices')
      .select('id')
      .where((eb) => eb.or([anyOf(db, 'id', ids), anyOf(db, 'uniqueId', uniqueIds)])),
  );
  return found.map((r) => r.id);
}

export function storedDeviceCount(db: SqlDatabase): number {
  const found = row(
    db,
    qb(db)
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
  return Number(found?.n ?? 0);
}

/** Removes a device's positions, events and queued commands (the device itself is removed by the CRUD). */
export async function deleteDeviceHistory(db: SqlDatabase, deviceId: number): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('positions').where('deviceId', '=', deviceId));
  await writeAsync(db, qb(db).deleteFrom('events').where('deviceId', '=', deviceId));
  await writeAsync(db, qb(db).deleteFrom('queued_commands').where('deviceId', '=', deviceId));
}

/** A device's name, unique id and attributes (text), as the QR check-in and the assistant read them. */
export interface DeviceCard {
  id: number;
  name: string;
  uniqueId: string;
  attributes: string | null;
}

export function findDeviceCard(db: SqlDatabase, id: number): DeviceCard | undefined {
  return row(
    db,
    qb(db).selectFrom('devices').select(['id', 'name', 'uniqueId', 'attributes']).where('id', '=', id),
  );
}

/** Every device's card, by name. */
export function deviceCards(db: SqlDatabase): DeviceCard[] {
  return rows(
    db,
    qb(db).selectFrom('devices').select(['id', 'name', 'uniqueId', 'attributes']).orderBy('name'),
  );
}

/** Writes a device's attributes (JSON text). */
export function setDeviceAttributes(db: SqlDatabase, id: number, attributes: string): void {
  write(db, qb(db).updateTable('devices').set({ attributes }).where('id', '=', id));
}

export function deviceIdByUniqueId(db: SqlDatabase, uniqueId: string): number | undefined {
  return row(db, qb(db).selectFrom('devices').select('id').where('uniqueId', '=', uniqueId))?.id;
}

/** How many devices have each status (a null status counted apart), as the health page reads them. */
export function deviceCountsByStatus(db: SqlDatabase): Array<{ status: string | null; n: number }> {
  return rows(
    db,
    qb(db)
      .selectFrom('devices')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status'),
  ).map((r) => ({ status: r.status, n: Number(r.n) }));
}
