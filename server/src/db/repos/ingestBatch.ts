// The ingestion's row writes (live/ingest.ts, deviceStates.ts, activity.ts): positions, events, device states and
// hours of activity. On SQLite each row is one run of a prepared statement (the fastest there). On PostgreSQL inside
// a transaction the rows are held and go out as ONE statement per table (a JSON array of rows unpacked by
// json_populate_recordset, one bound text parameter), sent without waiting before the transaction's next other
// statement, savepoint or COMMIT (db/postgres.ts `hold`); a ROLLBACK drops them. Ids are reserved ahead from the
// table's sequence as before, so a row's id is known at once. Outside a transaction a row is written at once.
import { ACTIVITY_SUMS } from '@rastro/domain';
import type { PostgresDatabase } from '../postgres.ts';
import type { SqlDatabase, SqlStatement } from '../sql.ts';
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

/** Rows of a table as one JSON array, unpacked by the table's own row type (keys: the column names). */
const rowsOf = (table: string) => `json_populate_recordset(NULL::${table}, $1::text::json)`;
/** Column names as the migrations made them on PostgreSQL (quoted, camel case). */
const q = (c: string) => `"${c}"`;
const list = (cols: readonly string[], prefix = '') => cols.map((c) => prefix + q(c)).join(', ');

/** The statements that write a held batch of rows, one each (PostgreSQL). */
export const BATCH_SQL = {
  positions: `INSERT INTO positions (${list(POSITION_IDS)}) SELECT ${list(POSITION_IDS)}
    FROM ${rowsOf('positions')} ON CONFLICT DO NOTHING`,
  events: `INSERT INTO events (${list(EVENT_IDS)}) SELECT ${list(EVENT_IDS)} FROM ${rowsOf('events')}`,
  devices: `UPDATE devices AS d SET "status" = u."status", "lastUpdate" = u."lastUpdate",
    "positionId" = u."positionId" FROM ${rowsOf('devices')} AS u WHERE d."id" = u."id"`,
  activity: `INSERT INTO activity (${list(ACTIVITY_COLUMNS)}) SELECT ${list(ACTIVITY_COLUMNS)}
    FROM ${rowsOf('activity')} ON CONFLICT ("deviceId", "hour", "driver") DO UPDATE SET
    ${ACTIVITY_SUMS.map((c) => `${q(c)} = activity.${q(c)} + excluded.${q(c)}`).join(', ')},
    "maxSpeed" = GREATEST(activity."maxSpeed", excluded."maxSpeed")`,
};

/** Rows held for one statement, keyed so that a later row may replace or merge into an earlier one. */
class Held<R extends object> {
  private rows = new Map<unknown, R>();
  private next = 0;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly statement: SqlStatement,
    private readonly merge?: (held: R, row: R) => void,
  ) {}

  add(row: R, key: unknown = this.next++): void {
    const held = this.rows.get(key);
    if (held && this.merge) this.merge(held, row);
    else this.rows.set(key, row);
    this.db.hold(this);
  }

  send(): void {
    if (this.rows.size === 0) return;
    const json = JSON.stringify([...this.rows.values()]);
    this.rows = new Map();
    this.statement.runLater(json);
  }

  drop(): void {
    this.rows = new Map();
  }
}

export interface IngestWrites {
  /** Stores a position: its new id, or 0 when the unique index skipped it (SQLite tells at once). */
  position(row: PositionRow): number;
  /** Stores an event: its new id. */
  event(row: EventRow): number;
  /** A device's status, last update and latest position id. */
  deviceState(row: DeviceStateRow): void;
}

/** Adds to an hour of activity (the sums add up, the top speed is the larger): live/activity.ts. */
export function activityWrites(db: SqlDatabase): (row: ActivityRow) => void {
  const upsert = prepareActivityUpsert(db);
  if (db.dialect !== 'postgres') return (row) => upsert.runLater(row);
  const pg = db as PostgresDatabase;
  const held = new Held<ActivityRow>(pg, pg.prepareNative(BATCH_SQL.activity), (sum, row) => {
    for (const c of ACTIVITY_SUMS) sum[c] = Number(sum[c]) + Number(row[c]);
    sum.maxSpeed = Math.max(Number(sum.maxSpeed), Number(row.maxSpeed));
  });
  return (row) => {
    if (pg.inTransaction) held.add({ ...row }, `${row.deviceId}\u0000${row.hour}\u0000${row.driver}`);
    else upsert.runLater(row);
  };
}

/** The ingestion's writes for a store; `statements` are its per-row statements (db/repos/ingest.ts). */
export function ingestWrites(
  db: SqlDatabase,
  statements: Pick<IngestStatements, 'insertPosition' | 'insertEvent' | 'updateDevice'>,
): IngestWrites {
  const direct: IngestWrites = {
    position: (row) => {
      const r = statements.insertPosition.run(row);
      return r.changes === 0 ? 0 : Number(r.lastInsertRowid);
    },
    event: (row) => Number(statements.insertEvent.run(row).lastInsertRowid),
    deviceState: (row) => statements.updateDevice.runLater(row),
  };
  if (db.dialect !== 'postgres') return direct;
  const pg = db as PostgresDatabase;
  const positions = new Held<PositionRow & { id: number }>(pg, pg.prepareNative(BATCH_SQL.positions));
  const events = new Held<EventRow & { id: number }>(pg, pg.prepareNative(BATCH_SQL.events));
  const devices = new Held<DeviceStateRow>(pg, pg.prepareNative(BATCH_SQL.devices));
  return {
    position: (row) => {
      if (!pg.inTransaction) return direct.position(row);
      const id = pg.reserveId('positions');
      positions.add({ ...row, id });
      return id;
    },
    event: (row) => {
      if (!pg.inTransaction) return direct.event(row);
      const id = pg.reserveId('events');
      events.add({ ...row, id });
      return id;
    },
    deviceState: (row) => {
      if (pg.inTransaction) devices.add({ ...row }, row.id);
      else direct.deviceState(row);
    },
  };
}
