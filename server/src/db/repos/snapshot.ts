// Everything the live core keeps in memory (live/cache.ts), read whole when it is stale: devices, groups,
// geofences, calendars, computed attributes, notifications, maintenances, users, the server row and the permission
// links. liveSnapshotAsync reads them side by side on the store's read pool (every path of PostgreSQL, and SQLite's
// off its batch transaction); the synchronous liveSnapshot is SQLite's only (its flushNow fast path: issue #30,
// session 36): given a PostgreSQL store it throws, so it never reaches the synchronous PostgreSQL handle.
// After a device's own write, devicesSnapshotAsync (and SQLite's devicesSnapshot) read that device's row and links
// alone.
import type { Compilable, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, row, rowAsync, rows, rowsAsync, syncSqliteOnly } from './query.ts';

type Stored<T extends keyof Database> = Selectable<Database[T]>;

function everyRow<T extends keyof Database>(db: SqlDatabase, table: T): Array<Stored<T>> {
  // typed as one of them: the compiled text names `table`
  return rows(db, everyQuery(db, table)) as unknown as Array<Stored<T>>;
}

const everyQuery = (db: SqlDatabase, table: keyof Database) =>
  qb(db)
    .selectFrom(table as 'links')
    .selectAll();

/** What the live cache is built from (live/cache.ts apply). */
export interface LiveSnapshot {
  devices: Array<Stored<'devices'>>;
  groups: Array<Stored<'groups'>>;
  geofences: Array<Stored<'geofences'>>;
  calendars: Array<Pick<Stored<'calendars'>, 'id' | 'data'>>;
  computed: Array<Stored<'computed_attributes'>>;
  notifications: Array<Stored<'notifications'>>;
  maintenances: Array<Stored<'maintenances'>>;
  users: Array<Stored<'users'>>;
  server: Stored<'server'> | undefined;
  links: Array<Stored<'links'>>;
}

/** liveSnapshot read on the store's read pool, every table at once; nothing kept until all are in. */
export async function liveSnapshotAsync(db: SqlDatabase): Promise<LiveSnapshot> {
  const every = <T extends keyof Database>(table: T) =>
    rowsAsync(db, everyQuery(db, table)) as unknown as Promise<Array<Stored<T>>>;
  const [devices, groups, geofences, calendars, computed, notifications, maintenances, users, server, links] =
    await Promise.all([
      every('devices'),
      every('groups'),
      every('geofences'),
      rowsAsync(db, qb(db).selectFrom('calendars').select(['id', 'data'])),
      every('computed_attributes'),
      every('notifications'),
      every('maintenances'),
      every('users'),
      rowAsync(db, qb(db).selectFrom('server').selectAll().where('id', '=', 1)),
      every('links'),
    ]);
  return {
    devices,
    groups,
    geofences,
    calendars,
    computed,
    notifications,
    maintenances,
    users,
    server,
    links,
  };
}

/** SQLite's synchronous read of the snapshot (its batch fast path, flushNow); refused on PostgreSQL. */
export function liveSnapshot(db: SqlDatabase): LiveSnapshot {
  syncSqliteOnly(db, 'liveSnapshot');
  return {
    devices: everyRow(db, 'devices'),
    groups: everyRow(db, 'groups'),
    geofences: everyRow(db, 'geofences'),
    calendars: rows(db, qb(db).selectFrom('calendars').select(['id', 'data'])),
    computed: everyRow(db, 'computed_attributes'),
    notifications: everyRow(db, 'notifications'),
    maintenances: everyRow(db, 'maintenances'),
    users: everyRow(db, 'users'),
    server: row(db, qb(db).selectFrom('server').selectAll().where('id', '=', 1)),
    links: everyRow(db, 'links'),
  };
}

/** What the live cache reads again of some devices alone (live/cache.ts applyDevices): their rows and links. */
export interface DevicesSnapshot {
  devices: Array<Stored<'devices'>>;
  /** Every link naming one of the devices, as owner or as property. */
  links: Array<Stored<'links'>>;
}

const devicesQueries = (db: SqlDatabase, ids: readonly number[]) => ({
  devices: qb(db)
    .selectFrom('devices')
    .selectAll()
    .where(anyOf(db, 'id', ids)) as Compilable<Stored<'devices'>>,
  links: qb(db)
    .selectFrom('links')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('propertyType', '=', 'device'), anyOf(db, 'propertyId', ids)]),
        eb.and([eb('ownerType', '=', 'device'), anyOf(db, 'ownerId', ids)]),
      ]),
    ) as Compilable<Stored<'links'>>,
});

/** Some devices' rows and links, read on the store's read pool side by side. */
export async function devicesSnapshotAsync(
  db: SqlDatabase,
  ids: readonly number[],
): Promise<DevicesSnapshot> {
  const q = devicesQueries(db, ids);
  const [devices, links] = await Promise.all([rowsAsync(db, q.devices), rowsAsync(db, q.links)]);
  return { devices, links };
}

/** devicesSnapshotAsync, synchronously: SQLite's only (liveSnapshot's twin for its batch fast path). */
export function devicesSnapshot(db: SqlDatabase, ids: readonly number[]): DevicesSnapshot {
  syncSqliteOnly(db, 'devicesSnapshot');
  const q = devicesQueries(db, ids);
  return { devices: rows(db, q.devices), links: rows(db, q.links) };
}
