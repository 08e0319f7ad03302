// The demo fleet's queries (live/simulator/seed.ts and index.ts, docs/demo-fleet.md): whether the store is still
// empty of demo data, the simulated devices (unique ids rastro-NNNN) with their last place, the device insert of a
// first start (prepared once: one per simulated vehicle) and the map's centre set once. The rest of the seed goes
// through the catalogue, users, links and server repositories.
import type { Insertable } from 'kysely';
import type { DeviceRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { preparedQuery, qb, row, rows, write } from './query.ts';

/** The simulated devices' unique ids start so. */
const SIMULATED = 'rastro-%';

/** Whether a user of the demo's domain (…@rastro.demo, any case) exists. */
export function anyDemoUser(db: SqlDatabase): boolean {
  return !!row(
    db,
    qb(db)
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), 'like', '%@rastro.demo'))
      .limit(1),
  );
}

/** The simulated devices' ids by unique id. */
export function simulatedDeviceIds(db: SqlDatabase): Array<{ id: number; uniqueId: string }> {
  return rows(
    db,
    qb(db).selectFrom('devices').select(['id', 'uniqueId']).where('uniqueId', 'like', SIMULATED),
  );
}

/** The simulated devices with their attributes (text) and the place of their latest position, if any. */
export function simulatedDevicesWithPlace(db: SqlDatabase): Array<{
  uniqueId: string;
  attributes: string | null;
  latitude: number | null;
  longitude: number | null;
}> {
  return rows(
    db,
    qb(db)
      .selectFrom('devices as d')
      .leftJoin('positions as p', 'p.id', 'd.positionId')
      .select(['d.uniqueId', 'd.attributes', 'p.latitude', 'p.longitude'])
      .where('d.uniqueId', 'like', SIMULATED),
  );
}

type NewDevice = Required<
  Pick<Insertable<DeviceRow>, 'name' | 'uniqueId' | 'groupId' | 'phone' | 'model' | 'category' | 'attributes'>
>;

/** Inserts a simulated device, prepared once per call of this function (a first start adds them all): its id. */
export function prepareDeviceInsert(db: SqlDatabase): (device: NewDevice) => number {
  const columns = ['name', 'uniqueId', 'groupId', 'phone', 'model', 'category', 'attributes'] as const;
  const insert = preparedQuery<NewDevice, { id: number }>(db, columns, (p) =>
    // the columns the table defaults to 0 are written as 0: the insert is fully typed against DeviceRow
    qb(db)
      .insertInto('devices')
      .values({ ...p, positionId: 0, calendarId: 0, disabled: 0 })
      .returning('id'),
  );
  return (device) => Number(insert.get(device)!.id);
}

/** Whether a driver with this code (unique id) is registered; its id. */
export function driverIdByCode(db: SqlDatabase, uniqueId: string): number | undefined {
  return row(db, qb(db).selectFrom('drivers').select('id').where('uniqueId', '=', uniqueId))?.id;
}

/** Centres the server's map on a place unless someone already chose one (still at 0, 0). */
export function centreMapIfUnset(db: SqlDatabase, latitude: number, longitude: number, zoom: number): void {
  write(
    db,
    qb(db)
      .updateTable('server')
      .set({ latitude, longitude, zoom })
      .where('id', '=', 1)
      .where('latitude', '=', 0)
      .where('longitude', '=', 0),
  );
}
