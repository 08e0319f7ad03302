// The demo fleet's queries (live/simulator/seed.ts and index.ts, docs/demo-fleet.md): whether the store is still
// empty of demo data, the simulated devices (unique ids rastro-NNNN) with their last place, the devices' insert of a
// first start (500 rows a statement) and the map's centre set once. Asynchronous (issue #30): the store or the
// seed's transaction handle (db/repos/query.ts inTransaction). The rest of the seed goes
// through the catalogue, users, links and server repositories.
import type { Insertable } from 'kysely';
import type { DeviceRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, rowAsync, rowsAsync, writeRowsAsync, writeAsync } from './query.ts';

/** The simulated devices' unique ids start so. */
const SIMULATED = 'rastro-%';

/** Whether a user of the demo's domain (…@rastro.demo, any case) exists. */
export async function anyDemoUser(db: SqlDatabase): Promise<boolean> {
  const found = await rowAsync(
    db,
    qb(db)
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), 'like', '%@rastro.demo'))
      .limit(1),
  );
  return !!found;
}

/** The simulated devices' ids by unique id. */
export function simulatedDeviceIds(db: SqlDatabase): Promise<Array<{ id: number; uniqueId: string }>> {
  return rowsAsync(
    db,
    qb(db).selectFrom('devices').select(['id', 'uniqueId']).where('uniqueId', 'like', SIMULATED),
  );
}

/** The simulated devices with their attributes (text) and the place of their latest position, if any. */
export function simulatedDevicesWithPlace(db: SqlDatabase): Promise<
  Array<{
    uniqueId: string;
    attributes: string | null;
    latitude: number | null;
    longitude: number | null;
  }>
> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('devices as d')
      .leftJoin('positions as p', 'p.id', 'd.positionId')
      .select(['d.uniqueId', 'd.attributes', 'p.latitude', 'p.longitude'])
      .where('d.uniqueId', 'like', SIMULATED),
  );
}

export type NewDevice = Required<
  Pick<Insertable<DeviceRow>, 'name' | 'uniqueId' | 'groupId' | 'phone' | 'model' | 'category' | 'attributes'>
>;

/** Inserts simulated devices, 500 a statement (a first start adds them all): their ids by unique id. */
export async function insertDevices(
  db: SqlDatabase,
  devices: readonly NewDevice[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < devices.length; i += 500) {
    // the columns the table defaults to 0 are written as 0: the insert is fully typed against DeviceRow
    const values = devices
      .slice(i, i + 500)
      .map((d) => ({ ...d, positionId: 0, calendarId: 0, disabled: 0 }));
    const made = await writeRowsAsync(
      db,
      qb(db).insertInto('devices').values(values).returning(['id', 'uniqueId']),
    );
    for (const r of made) ids.set(r.uniqueId, Number(r.id));
  }
  return ids;
}

/** Whether a driver with this code (unique id) is registered; its id. */
export async function driverIdByCode(db: SqlDatabase, uniqueId: string): Promise<number | undefined> {
  return (await rowAsync(db, qb(db).selectFrom('drivers').select('id').where('uniqueId', '=', uniqueId)))?.id;
}

/** Centres the server's map on a place unless someone already chose one (still at 0, 0). */
export async function centreMapIfUnset(
  db: SqlDatabase,
  latitude: number,
  longitude: number,
  zoom: number,
): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .updateTable('server')
      .set({ latitude, longitude, zoom })
      .where('id', '=', 1)
      .where('latitude', '=', 0)
      .where('longitude', '=', 0),
  );
}
