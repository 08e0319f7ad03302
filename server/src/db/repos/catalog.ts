// Single facts of catalogue rows the permission gate reads (authorize.ts): a saved command's type, a geofence's
// attributes; and whether a row exists. Saved commands and drivers as the live core reads them. The
// catalogues' CRUD is objects.ts.
import type { Selectable } from 'kysely';
import type { CommandRow, Database, DriverRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, rowAsync, rowsAsync } from './query.ts';

/** A saved command's type (the gate's facts, read on the pool). */
export async function savedCommandType(db: SqlDatabase, id: number): Promise<string | null> {
  return (
    (await rowAsync(db, qb(db).selectFrom('commands').select('type').where('id', '=', id)))?.type ?? null
  );
}

/** A geofence's attributes (JSON text; the gate's facts, read on the pool). */
export async function geofenceAttributesText(db: SqlDatabase, id: number): Promise<string | undefined> {
  return (await rowAsync(db, qb(db).selectFrom('geofences').select('attributes').where('id', '=', id)))
    ?.attributes;
}

/** Tables whose rows have an integer id. */
export type TableWithId = {
  [T in keyof Database]: Database[T] extends { id: unknown } ? T : never;
}[keyof Database];

const rowExistsQuery = (db: SqlDatabase, table: TableWithId, id: number) =>
  qb(db)
    // typed as one of them: the compiled text names `table`
    .selectFrom(table as 'users')
    .select('id')
    .where('id', '=', id);

/** rowExists on the read pool (access.ts objectExists). */
export async function rowExistsAsync(db: SqlDatabase, table: TableWithId, id: number): Promise<boolean> {
  return !!(await rowAsync(db, rowExistsQuery(db, table, id)));
}

export type SavedCommand = Selectable<CommandRow>;

/** A saved command, read on the pool (the command routes and a notification's command: issue #30, the main thread free). */
export function findSavedCommandAsync(db: SqlDatabase, id: number): Promise<SavedCommand | undefined> {
  return rowAsync(db, qb(db).selectFrom('commands').selectAll().where('id', '=', id));
}

/** Every saved command, by description (read on the pool). */
export function savedCommandsByDescription(db: SqlDatabase): Promise<SavedCommand[]> {
  return rowsAsync(db, qb(db).selectFrom('commands').selectAll().orderBy('description'));
}

/** A driver record (read on the pool). */
export function findDriver(db: SqlDatabase, id: number): Promise<Selectable<DriverRow> | undefined> {
  return rowAsync(db, qb(db).selectFrom('drivers').selectAll().where('id', '=', id));
}

/** The registered drivers with one of these codes (unique ids), read on the pool. */
export async function driverNamesByCode(
  db: SqlDatabase,
  codes: readonly string[],
): Promise<Array<{ uniqueId: string; name: string }>> {
  if (!codes.length) return [];
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('drivers')
      .select(['uniqueId', 'name'])
      .where(anyOf(db, 'uniqueId', codes)),
  );
}

/** Every registered driver's code (unique id) and name (reports and insights name drivers by code), on the pool. */
export function allDriverNames(db: SqlDatabase): Promise<Array<{ uniqueId: string; name: string }>> {
  return rowsAsync(db, qb(db).selectFrom('drivers').select(['uniqueId', 'name']));
}
