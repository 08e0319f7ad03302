// The ingestion's row writes (live/ingest.ts, deviceStates.ts, activity.ts): positions, events, device states and
// hours of activity. On SQLite each row is one run of a prepared statement in the batch's synchronous transaction
// (the fastest there). On PostgreSQL a batch's rows go out together as ONE pooled statement (db/repos/ingestPooled.ts:
// each table's rows a JSON array unpacked by json_populate_recordset, one bound text parameter per table; with
// several tables, all but the last written in data-modifying WITH clauses, which PostgreSQL runs once each), its ids
// reserved ahead from the tables' sequences, so a row's id is known at once.
import { ACTIVITY_SUMS } from '@rastro/domain';
import type { SqlDatabase } from '../sql.ts';
import {
  ACTIVITY_COLUMNS,
  EVENT_COLUMNS,
  POSITION_COLUMNS,
  prepareActivityUpsert,
  type ActivityValues,
  type IngestStatements,
} from './ingest.ts';

/** A positions-table row (ingestSql.ts positionRow). */
export interface PositionRow {
  deviceId: number;
  protocol: string | null;
  serverTime: string;
  deviceTime: string;
  fixTime: string;
  valid: number;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  accuracy: number;
  network: string | null;
  geofenceIds: string | null;
  attributes: string;
}

export interface EventRow {
  type: string;
  eventTime: string;
  deviceId: number;
  positionId: number;
  geofenceId: number;
  maintenanceId: number;
  attributes: string;
}

export interface DeviceStateRow {
  id: number;
  status: string | null;
  lastUpdate: string | null;
  positionId: number | null;
}

/** An hour of activity to add: deviceId, hour, driver, each of ACTIVITY_SUMS and maxSpeed. */
export type ActivityRow = ActivityValues;

const POSITION_IDS = ['id', ...POSITION_COLUMNS];
const EVENT_IDS = ['id', ...EVENT_COLUMNS];

/** Rows of a table as one JSON array (parameter `$n`), unpacked by the table's own row type (keys: the columns). */
const rowsOf = (table: string, n = 1) => `json_populate_recordset(NULL::${table}, $${n}::text::json)`;
/** Column names as the migrations made them on PostgreSQL (quoted, camel case). */
const q = (c: string) => `"${c}"`;
const list = (cols: readonly string[], prefix = '') => cols.map((c) => prefix + q(c)).join(', ');

/** The statement that writes a held table's rows, given as parameter `$n` (PostgreSQL). */
const BATCH_SQL = {
  positions: (n: number) => `INSERT INTO positions (${list(POSITION_IDS)}) SELECT ${list(POSITION_IDS)}
    FROM ${rowsOf('positions', n)} ON CONFLICT DO NOTHING`,
  events: (n: number) =>
    `INSERT INTO events (${list(EVENT_IDS)}) SELECT ${list(EVENT_IDS)} FROM ${rowsOf('events', n)}`,
  activity: (n: number) => `INSERT INTO activity (${list(ACTIVITY_COLUMNS)}) SELECT ${list(ACTIVITY_COLUMNS)}
    FROM ${rowsOf('activity', n)} ON CONFLICT ("deviceId", "hour", "driver") DO UPDATE SET
    ${ACTIVITY_SUMS.map((c) => `${q(c)} = activity.${q(c)} + excluded.${q(c)}`).join(', ')},
    "maxSpeed" = GREATEST(activity."maxSpeed", excluded."maxSpeed")`,
  // a state never replaced by an older one (a guard: another process may write the device too); ISO times compare
  // as text in "C" order. The ids again as an array: PostgreSQL guesses 100 rows from json_populate_recordset and,
  // joining on it alone, hashes them against a scan of the whole table at each batch (1.9 ms at 10,000 devices,
  // session 45); `= ANY` of the ids looks them up in the primary key.
  devices: (n: number) => `UPDATE devices AS d SET "status" = u."status", "lastUpdate" = u."lastUpdate",
    "positionId" = u."positionId" FROM ${rowsOf('devices', n)} AS u WHERE d."id" = u."id"
    AND d."id" = ANY (ARRAY(SELECT "id" FROM ${rowsOf('devices', n)}))
    AND (d."lastUpdate" IS NULL OR u."lastUpdate" IS NULL
      OR d."lastUpdate" COLLATE "C" <= u."lastUpdate" COLLATE "C")`,
  // the queued commands a batch delivered (the pooled batch only: live/ingest.ts), ids as a JSON array
  queued: (n: number) => `DELETE FROM queued_commands WHERE "id" IN
    (SELECT value::bigint FROM json_array_elements_text($${n}::text::json))`,
};
export type BatchTable = keyof typeof BATCH_SQL;
type Table = BatchTable;
/** The tables in the order a batch statement writes them. */
export const BATCH_TABLES = Object.keys(BATCH_SQL) as Table[];

/**
 * One statement writing the tables' held rows, `$1`… in the order given: the last table's statement, the others
 * in WITH clauses before it (no FOREIGN KEY ties these tables, and each table's rows are written by one clause).
 */
export function batchSql(tables: readonly Table[]): string {
  const last = tables.length - 1;
  const clauses = tables.slice(0, last).map((t, i) => `w${i} AS (${BATCH_SQL[t](i + 1)})`);
  return (clauses.length ? `WITH ${clauses.join(', ')} ` : '') + BATCH_SQL[tables[last]](last + 1);
}

export interface IngestWrites {
  /** Stores a position: its new id, or 0 when the unique index skipped it (SQLite tells at once). */
  position(row: PositionRow): number;
  /** Stores an event: its new id. */
  event(row: EventRow): number;
  /** A device's status, last update and latest position id. */
  deviceState(row: DeviceStateRow): void;
  /** An hour of activity to add, when the writes take it (a pooled batch's, held once it is stored: ingestPooled.ts
   * HeldActivity); else live/activity.ts's own, in the batch's transaction. */
  activity?(row: ActivityRow): void;
}

/** Adds an hour of activity held to another of the same device, hour and driver (one upsert may not touch a row twice). */
export function mergeActivity(sum: ActivityRow, row: ActivityRow): void {
  for (const c of ACTIVITY_SUMS) sum[c] = Number(sum[c]) + Number(row[c]);
  sum.maxSpeed = Math.max(Number(sum.maxSpeed), Number(row.maxSpeed));
}

/** An hour of activity's key: device, hour, driver. */
export const activityKey = (row: ActivityRow): string =>
  `${row.deviceId}\u0000${row.hour}\u0000${row.driver}`;

/** Adds to an hour of activity (the sums add up, the top speed is the larger): live/activity.ts. */
export function activityWrites(db: SqlDatabase): (row: ActivityRow) => void {
  const upsert = prepareActivityUpsert(db);
  return (row) => upsert.runLater(row);
}

/** The ingestion's writes in SQLite's batch transaction; `statements` are its per-row statements (db/repos/ingest.ts). */
export function ingestWrites(
  statements: Pick<IngestStatements, 'insertPosition' | 'insertEvent' | 'updateDevice'>,
): IngestWrites {
  return {
    position: (row) => {
      const r = statements.insertPosition.run(row);
      return r.changes === 0 ? 0 : Number(r.lastInsertRowid);
    },
    event: (row) => Number(statements.insertEvent.run(row).lastInsertRowid),
    deviceState: (row) => statements.updateDevice.runLater(row),
  };
}
