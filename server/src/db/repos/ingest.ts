// The ingestion's statements (live/ingest.ts, ingestSql.ts, deviceStates.ts, activity.ts), prepared once when the
// live core starts. They stay in the store's common SQLite text (translated once on PostgreSQL, db/pgTranslate.ts)
// rather than kysely's: inside a batch's transaction, PostgreSQL sends these INSERTs without waiting, with ids
// reserved ahead (db/postgres.ts), which only the translated statements do today. They move to compiled queries with
// the asynchronous pool (docs/decisions/41-kysely-repositories.md); the callers keep the same statement objects.
import { ACTIVITY_SUMS } from '@rastro/domain';
import type { SqlDatabase, SqlStatement } from '../sql.ts';
import { qb, row, rows, write } from './query.ts';

/** The live core's statements, prepared once per store. */
export function prepareIngestStatements(db: SqlDatabase) {
  return {
    positionById: db.prepare('SELECT * FROM positions WHERE id = ?'),
    /** The device's stored position at a fix time (one per device and fix time, issue #30). */
    positionAt: db.prepare('SELECT * FROM positions WHERE deviceId = ? AND fixTime = ?'),
    // a resend the unique index refuses is skipped, never a failed batch (positionAt finds it first as a rule)
    insertPosition: db.prepare(
      `INSERT OR IGNORE INTO positions (deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude,
        altitude, speed, course, accuracy, network, geofenceIds, attributes)
       VALUES (@deviceId, @protocol, @serverTime, @deviceTime, @fixTime, @valid, @latitude, @longitude,
        @altitude, @speed, @course, @accuracy, @network, @geofenceIds, @attributes)`,
    ),
    insertEvent: db.prepare(
      `INSERT INTO events (type, eventTime, deviceId, positionId, geofenceId, maintenanceId, attributes)
       VALUES (@type, @eventTime, @deviceId, @positionId, @geofenceId, @maintenanceId, @attributes)`,
    ),
    setPositionAttributes: db.prepare('UPDATE positions SET attributes = ? WHERE id = ?'),
    updateDevice: db.prepare(
      'UPDATE devices SET status = @status, lastUpdate = @lastUpdate, positionId = @positionId WHERE id = @id',
    ),
    updateStatus: db.prepare('UPDATE devices SET status = ? WHERE id = ?'),
    firstQueued: db.prepare('SELECT * FROM queued_commands WHERE deviceId = ? ORDER BY id LIMIT 1'),
    deleteQueued: db.prepare('DELETE FROM queued_commands WHERE id = ?'),
    insertQueued: db.prepare(
      `INSERT INTO queued_commands (deviceId, type, textChannel, attributes, createdAt)
       VALUES (@deviceId, @type, @textChannel, @attributes, @createdAt)`,
    ),
  };
}

export type IngestStatements = ReturnType<typeof prepareIngestStatements>;

/**
 * The live device states' reads (live/deviceStates.ts), prepared once: a device by id or unique id when the live
 * cache misses it, a device's latest position by id.
 */
export function prepareDeviceLookups(
  db: SqlDatabase,
): Record<'byId' | 'byUniqueId' | 'positionById', SqlStatement> {
  return {
    positionById: db.prepare('SELECT * FROM positions WHERE id = ?'),
    byId: db.prepare('SELECT id FROM devices WHERE id = ?'),
    byUniqueId: db.prepare('SELECT id FROM devices WHERE uniqueId = ?'),
  };
}

/**
 * Adds an hour of activity to its row (device, UTC hour, driver), prepared once (live/activity.ts): the sums add
 * up, the top speed is the larger; named parameters: deviceId, hour, driver, each of ACTIVITY_SUMS, maxSpeed.
 */
export function prepareActivityUpsert(db: SqlDatabase): SqlStatement {
  const sums = ACTIVITY_SUMS;
  return db.prepare(
    `INSERT INTO activity (deviceId, hour, driver, ${sums.join(', ')}, maxSpeed)
     VALUES (@deviceId, @hour, @driver, ${sums.map((c) => `@${c}`).join(', ')}, @maxSpeed)
     ON CONFLICT (deviceId, hour, driver) DO UPDATE SET
     ${sums.map((c) => `${c} = activity.${c} + excluded.${c}`).join(', ')},
     maxSpeed = MAX(activity.maxSpeed, excluded.maxSpeed)`,
  );
}

/** Server start: every device's status forgotten (rendered offline until it reports again, CONTRACT §7). */
export function resetDeviceStatuses(db: SqlDatabase): void {
  write(db, qb(db).updateTable('devices').set({ status: null }));
}

/** The devices with queued commands waiting. */
export function devicesWithQueuedCommands(db: SqlDatabase): number[] {
  return rows(db, qb(db).selectFrom('queued_commands').select('deviceId').distinct()).map((r) => r.deviceId);
}

/** Whether any hour of activity is stored. */
export function anyActivity(db: SqlDatabase): boolean {
  return !!row(db, qb(db).selectFrom('activity').select('deviceId').limit(1));
}
