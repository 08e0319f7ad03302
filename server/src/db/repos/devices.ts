// Devices (table devices) beyond the generic catalogue CRUD of objects.ts: lookups by id or unique id, the count
// the device caps read, and what goes with a removed device.
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

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

const deviceCount = (db: SqlDatabase) =>
  qb(db)
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'));

/** How many devices are stored, read on the read pool (the device caps of a create, the demo seed's check). */
export async function storedDeviceCountAsync(db: SqlDatabase): Promise<number> {
  return Number((await rowAsync(db, deviceCount(db)))?.n ?? 0);
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

const deviceCard = (db: SqlDatabase, id: number) =>
  qb(db).selectFrom('devices').select(['id', 'name', 'uniqueId', 'attributes']).where('id', '=', id);

/** A device's card, read on the read pool or in the transaction of a handle (the API, the QR check-in, the seed). */
export function findDeviceCardAsync(db: SqlDatabase, id: number): Promise<DeviceCard | undefined> {
  return rowAsync(db, deviceCard(db, id));
}

/** Every device's card, by name, read on the read pool. */
export function deviceCards(db: SqlDatabase): Promise<DeviceCard[]> {
  return rowsAsync(
    db,
    qb(db).selectFrom('devices').select(['id', 'name', 'uniqueId', 'attributes']).orderBy('name'),
  );
}

const attributesUpdate = (db: SqlDatabase, id: number, attributes: string) =>
  qb(db).updateTable('devices').set({ attributes }).where('id', '=', id);

/**
 * Writes a device's attributes (JSON text) without the main thread waiting (issue #30, session 33): the store (one
 * autocommitted statement) or a transaction's handle (the QR check-in's).
 */
export async function setDeviceAttributes(db: SqlDatabase, id: number, attributes: string): Promise<void> {
  await writeAsync(db, attributesUpdate(db, id, attributes));
}

/** The id of the device with this unique id, read on the read pool. */
export async function deviceIdByUniqueIdAsync(
  db: SqlDatabase,
  uniqueId: string,
): Promise<number | undefined> {
  return (await rowAsync(db, qb(db).selectFrom('devices').select('id').where('uniqueId', '=', uniqueId)))?.id;
}

/** How many devices have each status (a null status counted apart), as the health page reads them (read pool). */
export async function deviceCountsByStatus(
  db: SqlDatabase,
): Promise<Array<{ status: string | null; n: number }>> {
  const found = await rowsAsync(
    db,
    qb(db)
      .selectFrom('devices')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status'),
  );
  return found.map((r) => ({ status: r.status, n: Number(r.n) }));
}
