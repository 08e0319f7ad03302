// Everything the live core keeps in memory (live/cache.ts), read whole when it is stale: devices, groups,
// geofences, calendars, computed attributes, notifications, users, the server row and the permission links. The
// async twin reads them side by side on the store's read pool (PostgreSQL's ingestion: issue #30, session 31).
import type { Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, row, rowAsync, rows, rowsAsync } from './query.ts';

type Stored<T extends keyof Database> = Selectable<Database[T]>;

function everyRow<T extends keyof Database>(db: SqlDatabase, table: T): Array<Stored<T>> {
  // typed as one of them: the compiled text names `table`
  return rows(db, everyQuery(db, table)) as unknown as Array<Stored<T>>;
}

const everyQuery = (db: SqlDatabase, table: keyof Database) =>
  qb(db)
    .selectFrom(table as 'links')
    .selectAll();

export type LiveSnapshot = ReturnType<typeof liveSnapshot>;

/** liveSnapshot read on the store's read pool, every table at once; nothing kept until all are in. */
export async function liveSnapshotAsync(db: SqlDatabase): Promise<LiveSnapshot> {
  const every = <T extends keyof Database>(table: T) =>
    rowsAsync(db, everyQuery(db, table)) as unknown as Promise<Array<Stored<T>>>;
  const [devices, groups, geofences, calendars, computed, notifications, users, server, links] =
    await Promise.all([
      every('devices'),
      every('groups'),
      every('geofences'),
      rowsAsync(db, qb(db).selectFrom('calendars').select(['id', 'data'])),
      every('computed_attributes'),
      every('notifications'),
      every('users'),
      rowAsync(db, qb(db).selectFrom('server').selectAll().where('id', '=', 1)),
      every('links'),
    ]);
  return { devices, groups, geofences, calendars, computed, notifications, users, server, links };
}

export function liveSnapshot(db: SqlDatabase) {
  return {
    devices: everyRow(db, 'devices'),
    groups: everyRow(db, 'groups'),
    geofences: everyRow(db, 'geofences'),
    calendars: rows(db, qb(db).selectFrom('calendars').select(['id', 'data'])),
    computed: everyRow(db, 'computed_attributes'),
    notifications: everyRow(db, 'notifications'),
    users: everyRow(db, 'users'),
    server: row(db, qb(db).selectFrom('server').selectAll().where('id', '=', 1)),
    links: everyRow(db, 'links'),
  };
}
