// Tracker identifiers no device has (table unknown_devices, live/autolink.ts): remembered as they report, pruned to
// the most recent, read and forgotten when a device is registered for one.
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { UnknownDeviceRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, rowAsync, writeAsync } from './query.ts';

/** A report of an unknown tracker identifier (its place null when it had no valid fix). */
export interface UnknownReport {
  uniqueId: string;
  protocol: string | null;
  now: string;
  latitude: number | null;
  longitude: number | null;
  fixTime: string | null;
}

/**
 * Records a report of an unknown identifier; a known one counts one more report and keeps its last place. One
 * autocommitted upsert without the main thread waiting (issue #30, session 33).
 */
export async function recordUnknownDevice(db: SqlDatabase, r: UnknownReport): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .insertInto('unknown_devices')
      .values({
        uniqueId: r.uniqueId,
        protocol: r.protocol,
        firstSeen: r.now,
        lastSeen: r.now,
        reports: 1,
        latitude: r.latitude,
        longitude: r.longitude,
        fixTime: r.fixTime,
      })
      .onConflict((oc) =>
        oc.column('uniqueId').doUpdateSet((eb) => ({
          protocol: r.protocol,
          lastSeen: r.now,
          reports: eb('unknown_devices.reports', '+', 1),
          latitude: eb.fn.coalesce(eb.val(r.latitude), 'unknown_devices.latitude'),
          longitude: eb.fn.coalesce(eb.val(r.longitude), 'unknown_devices.longitude'),
          fixTime: eb.fn.coalesce(eb.val(r.fixTime), 'unknown_devices.fixTime'),
        })),
      ),
  );
}

/** Keeps the `keep` identifiers seen most recently, removes the rest. */
export async function pruneUnknownDevices(db: SqlDatabase, keep: number): Promise<void> {
  let older = qb(db).selectFrom('unknown_devices').select('uniqueId').orderBy('lastSeen', 'desc');
  // SQLite needs a LIMIT before an OFFSET (-1: none)
  if (db.dialect === 'sqlite') older = older.limit(sql.lit(-1));
  await writeAsync(db, qb(db).deleteFrom('unknown_devices').where('uniqueId', 'in', older.offset(keep)));
}

/** An unknown identifier's row, read on the read pool. */
export function findUnknownDevice(
  db: SqlDatabase,
  uniqueId: string,
): Promise<Selectable<UnknownDeviceRow> | undefined> {
  return rowAsync(db, qb(db).selectFrom('unknown_devices').selectAll().where('uniqueId', '=', uniqueId));
}

export async function forgetUnknownDevice(db: SqlDatabase, uniqueId: string): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('unknown_devices').where('uniqueId', '=', uniqueId));
}
