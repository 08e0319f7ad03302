// Everything the live core keeps in memory (live/cache.ts), read whole when it is stale: devices, groups,
// geofences, calendars, computed attributes, notifications, users, the server row and the permission links.
import type { Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, row, rows } from './query.ts';

type Stored<T extends keyof Database> = Selectable<Database[T]>;

function everyRow<T extends keyof Database>(db: SqlDatabase, table: T): Array<Stored<T>> {
  // typed as one of them: the compiled text names `table`
  return rows(
    db,
    qb(db)
      .selectFrom(table as 'links')
      .selectAll(),
  ) as unknown as Array<Stored<T>>;
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
