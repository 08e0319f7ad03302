// Tracker identifiers no device has (table unknown_devices, live/autolink.ts): remembered as they report, pruned to
// the most recent, read and forgotten when a device is registered for one.
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { UnknownDeviceRow } from '../schema.ts';
import type { SqlDatabase, SqlStatement } from '../sql.ts';
import { qb, row, write } from './query.ts';

/**
 * Records a report of an unknown identifier, prepared once (it runs as reports arrive): named parameters uniqueId,
 * protocol, now, latitude, longitude, fixTime; a known one counts one more report and keeps its last place.
 */
export function prepareUnknownDeviceUpsert(db: SqlDatabase): SqlStatement {
  return db.prepare(
    `INSERT INTO unknown_devices (uniqueId, protocol, firstSeen, lastSeen, reports, latitude, longitude, fixTime)
     VALUES (@uniqueId, @protocol, @now, @now, 1, @latitude, @longitude, @fixTime)
     ON CONFLICT(uniqueId) DO UPDATE SET protocol = @protocol, lastSeen = @now, reports = unknown_devices.reports + 1,
       latitude = coalesce(@latitude, unknown_devices.latitude),
       longitude = coalesce(@longitude, unknown_devices.longitude),
       fixTime = coalesce(@fixTime, unknown_devices.fixTime)`,
  );
}

/** Keeps the `keep` identifiers seen most recently, removes the rest. */
export function pruneUnknownDevices(db: SqlDatabase, keep: number): void {
  let older = qb(db).selectFrom('unknown_devices').select('uniqueId').orderBy('lastSeen', 'desc');
  // SQLite needs a LIMIT before an OFFSET (-1: none)
  if (db.dialect === 'sqlite') older = older.limit(sql.lit(-1));
  write(db, qb(db).deleteFrom('unknown_devices').where('uniqueId', 'in', older.offset(keep)));
}

export function findUnknownDevice(
  db: SqlDatabase,
  uniqueId: string,
): Selectable<UnknownDeviceRow> | undefined {
  return row(db, qb(db).selectFrom('unknown_devices').selectAll().where('uniqueId', '=', uniqueId));
}

export function forgetUnknownDevice(db: SqlDatabase, uniqueId: string): void {
  write(db, qb(db).deleteFrom('unknown_devices').where('uniqueId', '=', uniqueId));
}
