// Single facts of catalogue rows the permission gate reads (authorize.ts): a saved command's type, a geofence's
// attributes; and whether a row exists. The catalogues' own CRUD stays in traccar/crud.ts for now.
import type { Database } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, row } from './query.ts';

export function savedCommandType(db: SqlDatabase, id: number): string | null {
  return row(db, qb(db).selectFrom('commands').select('type').where('id', '=', id))?.type ?? null;
}

export function geofenceAttributesText(db: SqlDatabase, id: number): string | undefined {
  return row(db, qb(db).selectFrom('geofences').select('attributes').where('id', '=', id))?.attributes;
}

/** Tables whose rows have an integer id. */
export type TableWithId = {
  [T in keyof Database]: Database[T] extends { id: unknown } ? T : never;
}[keyof Database];

export function rowExists(db: SqlDatabase, table: TableWithId, id: number): boolean {
  return !!row(
    db,
    qb(db)
      // typed as one of them: the compiled text names `table`
      .selectFrom(table as 'users')
      .select('id')
      .where('id', '=', id),
  );
}
