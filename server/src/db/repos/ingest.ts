// The ingestion's statements (live/ingest.ts, ingestSql.ts, deviceStates.ts, activity.ts), each a typed kysely query
// compiled and prepared once per store when the live core starts (db/repos/query.ts), never per call: reads and
// one-column updates as the store's own statements called positionally (preparedStatement), row writes bound by
// name (preparedQuery), INSERTs through preparedInsert: SQLite's synchronous batch. PostgreSQL's batches write
// their rows as one pooled statement (db/repos/ingestPooled.ts, ingestBatch.ts batchSql).
import { ACTIVITY_SUMS } from '@rastro/domain';
import { sql, type Insertable } from 'kysely';
import type { ActivityRow, EventRow, PositionRow, QueuedCommandRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import {
  insertAsync,
  preparedInsert,
  preparedQuery,
  preparedStatement,
  qb,
  rowAsync,
  rowsAsync,
  writeAsync,
} from './query.ts';

/** The positions-table columns a new row gives (the id is the table's). */
export const POSITION_COLUMNS = [
  'deviceId',
  'protocol',
  'serverTime',
  'deviceTime',
  'fixTime',
  'valid',
  'latitude',
  'longitude',
  'altitude',
  'speed',
  'course',
  'accuracy',
  'network',
  'geofenceIds',
  'attributes',
] as const;
export const EVENT_COLUMNS = [
  'type',
  'eventTime',
  'deviceId',
  'positionId',
  'geofenceId',
  'maintenanceId',
  'attributes',
] as const;
export const ACTIVITY_COLUMNS = ['deviceId', 'hour', 'driver', ...ACTIVITY_SUMS, 'maxSpeed'] as const;

type NewRow<R> = Omit<Insertable<R>, 'id'>;

/** An hour of activity to add: deviceId, hour, driver, each of ACTIVITY_SUMS and maxSpeed. */
export type ActivityValues = { deviceId: number; hour: number; driver: string } & Record<
  string,
  number | string
>;

/** The named placeholders as an insertable row (the column names are the parameters' names). */
const rowOf = <R>(p: object, columns: readonly string[]) =>
  Object.fromEntries(columns.map((c) => [c, (p as Record<string, unknown>)[c]])) as Insertable<R>;

/** The live core's statements, prepared once per store. */
export function prepareIngestStatements(db: SqlDatabase) {
  const b = qb(db);
  return {
    positionById: preparedStatement<{ id: number }>(db, ['id'], (p) =>
      b.selectFrom('positions').selectAll().where('id', '=', p.id),
    ),
    /** The device's stored position at a fix time (one per device and fix time, issue #30). */
    positionAt: preparedStatement<{ deviceId: number; fixTime: string }>(db, ['deviceId', 'fixTime'], (p) =>
      b
        .selectFrom('positions')
        .selectAll()
        .where('deviceId', '=', p.deviceId)
        .where('fixTime', '=', p.fixTime),
    ),
    // a resend the unique index refuses is skipped, never a failed batch (positionAt finds it first as a rule)
    insertPosition: preparedInsert<NewRow<PositionRow>, 'positions'>(db, POSITION_COLUMNS, (p) =>
      b
        .insertInto('positions')
        .values(rowOf<PositionRow>(p, POSITION_COLUMNS))
        .onConflict((oc) => oc.doNothing()),
    ),
    insertEvent: preparedInsert<NewRow<EventRow>, 'events'>(db, EVENT_COLUMNS, (p) =>
      b.insertInto('events').values(rowOf<EventRow>(p, EVENT_COLUMNS)),
    ),
    updateDevice: preparedQuery<
      { status: string | null; lastUpdate: string | null; positionId: number | null; id: number },
      never
    >(db, ['status', 'lastUpdate', 'positionId', 'id'], (p) =>
      b
        .updateTable('devices')
        .set({ status: p.status, lastUpdate: p.lastUpdate, positionId: p.positionId as number })
        .where('id', '=', p.id),
    ),
    firstQueued: preparedStatement<{ deviceId: number }>(db, ['deviceId'], (p) =>
      b
        .selectFrom('queued_commands')
        .selectAll()
        .where('deviceId', '=', p.deviceId)
        .orderBy('id')
        .limit(sql.lit(1)),
    ),
    deleteQueued: preparedStatement<{ id: number }>(db, ['id'], (p) =>
      b.deleteFrom('queued_commands').where('id', '=', p.id),
    ),
  };
}

export type IngestStatements = ReturnType<typeof prepareIngestStatements>;

/**
 * Whether a device with this id or identifier (trimmed) is stored, read on the read pool (PostgreSQL's ingestion, a
 * report the live cache does not know: live/deviceStates.ts findDeviceAsync; SQLite's too since session 35).
 */
export async function storedDeviceExists(
  db: SqlDatabase,
  ref: { uniqueId?: string; deviceId?: number },
): Promise<boolean> {
  const devices = qb(db).selectFrom('devices').select('id');
  const found = await rowAsync(
    db,
    ref.deviceId !== undefined
      ? devices.where('id', '=', ref.deviceId)
      : devices.where('uniqueId', '=', (ref.uniqueId ?? '').trim()),
  );
  return found !== undefined;
}

/** The activity upsert's rows: the sums add up, the top speed is the larger (SQLite's max, PostgreSQL's greatest). */
function upsertActivity(db: SqlDatabase, values: Insertable<ActivityRow> | Array<Insertable<ActivityRow>>) {
  const larger = sql.raw(db.dialect === 'sqlite' ? 'max' : 'greatest');
  return qb(db)
    .insertInto('activity')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['deviceId', 'hour', 'driver']).doUpdateSet({
        ...Object.fromEntries(
          ACTIVITY_SUMS.map((c) => [
            c,
            sql<number>`${sql.ref(`activity.${c}`)} + ${sql.ref(`excluded.${c}`)}`,
          ]),
        ),
        maxSpeed: sql<number>`${larger}(${sql.ref('activity.maxSpeed')}, ${sql.ref('excluded.maxSpeed')})`,
      }),
    );
}

/**
 * Adds an hour of activity to its row (device, UTC hour, driver), prepared once (live/activity.ts); values by name:
 * deviceId, hour, driver, each of ACTIVITY_SUMS, maxSpeed.
 */
export function prepareActivityUpsert(db: SqlDatabase) {
  return preparedQuery<ActivityValues, never>(db, ACTIVITY_COLUMNS, (p) =>
    upsertActivity(db, rowOf<ActivityRow>(p, ACTIVITY_COLUMNS)),
  );
}

/** Rows of one upsert of the activity rebuild (13 values each: well under either store's bound on parameters). */
const ACTIVITY_ROWS_PER_STATEMENT = 500;

/**
 * Adds hours of activity, at most one row per (device, hour, driver), without the main thread waiting (the activity
 * rebuild, live/activity.ts): ONE autocommitted statement per 500 rows, so no row lock is held across turns of the
 * event loop (decision 41's deadlock rule).
 */
export async function addActivityRows(db: SqlDatabase, list: readonly ActivityValues[]): Promise<void> {
  for (let i = 0; i < list.length; i += ACTIVITY_ROWS_PER_STATEMENT) {
    const chunk = list.slice(i, i + ACTIVITY_ROWS_PER_STATEMENT);
    await writeAsync(
      db,
      upsertActivity(
        db,
        chunk.map((r) => rowOf<ActivityRow>(r, ACTIVITY_COLUMNS)),
      ),
    );
  }
}

/**
 * Server start: every device's status forgotten (rendered offline until it reports again, CONTRACT §7). One
 * autocommitted UPDATE without the main thread waiting (issue #30, session 33; on SQLite it runs at once).
 */
export async function resetDeviceStatuses(db: SqlDatabase): Promise<void> {
  await writeAsync(db, qb(db).updateTable('devices').set({ status: null }));
}

/**
 * A device's status, the status sweep's (live/ingest.ts, issue #30, session 34): on the handle of its emitEvents
 * transaction (inTransaction), without the main thread waiting.
 */
export async function setDeviceStatusAsync(db: SqlDatabase, id: number, status: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('devices').set({ status }).where('id', '=', id));
}

/** An event stored outside a batch (live/ingest.ts emitEvents' transaction, its handle): its id. */
export async function insertLiveEventAsync(db: SqlDatabase, row: NewRow<EventRow>): Promise<number> {
  return insertAsync(db, qb(db).insertInto('events').values(row));
}

/** A command queued for a device's next report (live/liveCommands.ts queueCommand), without the main thread waiting: its id. */
export async function insertQueuedCommandAsync(
  db: SqlDatabase,
  row: NewRow<QueuedCommandRow>,
): Promise<number> {
  return insertAsync(db, qb(db).insertInto('queued_commands').values(row));
}

/** The devices with queued commands waiting (on the read pool). */
export async function devicesWithQueuedCommands(db: SqlDatabase): Promise<number[]> {
  const found = await rowsAsync(db, qb(db).selectFrom('queued_commands').select('deviceId').distinct());
  return found.map((r) => r.deviceId);
}

/** Whether any hour of activity is stored (on the read pool). */
export async function anyActivity(db: SqlDatabase): Promise<boolean> {
  return !!(await rowAsync(db, qb(db).selectFrom('activity').select('deviceId').limit(1)));
}
