// The live core's prepared statements and its check of a decoded position before it is queued (ingest.ts).
import type { SqlDatabase } from '../db/sql.ts';
import type { Position } from '@rastro/domain';
import type { IncomingPosition } from './types.ts';

export function splitList(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

export function validate(p: IncomingPosition): string | null {
  if (!p || typeof p !== 'object') return 'Position expected';
  if (p.uniqueId === undefined && p.deviceId === undefined) return 'Device id missing';
  if (!(p.fixTime instanceof Date) || !Number.isFinite(p.fixTime.getTime())) return 'Invalid fix time';
  if (
    p.deviceTime !== undefined &&
    (!(p.deviceTime instanceof Date) || !Number.isFinite(p.deviceTime.getTime()))
  )
    return 'Invalid device time';
  if (!Number.isFinite(p.latitude) || Math.abs(p.latitude) > 90) return 'Latitude out of range';
  if (!Number.isFinite(p.longitude) || Math.abs(p.longitude) > 180) return 'Longitude out of range';
  for (const k of ['altitude', 'speed', 'course', 'accuracy'] as const) {
    if (p[k] !== undefined && !Number.isFinite(p[k])) return `Invalid ${k}`;
  }
  return null;
}

export function prepare(db: SqlDatabase) {
  return {
    positionById: db.prepare('SELECT * FROM positions WHERE id = ?'),
    insertPosition: db.prepare(
      `INSERT INTO positions (deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude,
        altitude, speed, course, accuracy, network, geofenceIds, attributes)
       VALUES (@deviceId, @protocol, @serverTime, @deviceTime, @fixTime, @valid, @latitude, @longitude,
        @altitude, @speed, @course, @accuracy, @network, @geofenceIds, @attributes)`,
    ),
    insertEvent: db.prepare(
      `INSERT INTO events (type, eventTime, deviceId, positionId, geofenceId, maintenanceId, attributes)
       VALUES (@type, @eventTime, @deviceId, @positionId, @geofenceId, @maintenanceId, @attributes)`,
    ),
    updateDevice: db.prepare(
      'UPDATE devices SET status = @status, lastUpdate = @lastUpdate, positionId = @positionId WHERE id = @id',
    ),
    updateStatus: db.prepare('UPDATE devices SET status = ? WHERE id = ?'),
    setPositionId: db.prepare('UPDATE devices SET positionId = ? WHERE id = ?'),
    firstQueued: db.prepare('SELECT * FROM queued_commands WHERE deviceId = ? ORDER BY id LIMIT 1'),
    deleteQueued: db.prepare('DELETE FROM queued_commands WHERE id = ?'),
    insertQueued: db.prepare(
      `INSERT INTO queued_commands (deviceId, type, textChannel, attributes, createdAt)
       VALUES (@deviceId, @type, @textChannel, @attributes, @createdAt)`,
    ),
  };
}

export type LiveStatements = ReturnType<typeof prepare>;

/** An API time (`…000+00:00`, json.ts `iso`) as the stored `…000Z`; a string op on the hot path, a parse otherwise. */
const plainIso = (s: string): string =>
  s.length === 29 && s.endsWith('+00:00') ? `${s.slice(0, 23)}Z` : new Date(s).toISOString();

/** The positions-table row of a position in its API form (times back to plain ISO, JSON columns as text). */
export function positionRow(p: Position) {
  return {
    deviceId: p.deviceId,
    protocol: p.protocol,
    serverTime: plainIso(p.serverTime),
    deviceTime: plainIso(p.deviceTime),
    fixTime: plainIso(p.fixTime),
    valid: p.valid ? 1 : 0,
    latitude: p.latitude,
    longitude: p.longitude,
    altitude: p.altitude,
    speed: p.speed,
    course: p.course,
    accuracy: p.accuracy,
    network: p.network ? JSON.stringify(p.network) : null,
    geofenceIds: p.geofenceIds ? JSON.stringify(p.geofenceIds) : null,
    attributes: JSON.stringify(p.attributes),
  };
}
