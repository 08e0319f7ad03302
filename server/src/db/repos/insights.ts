// Fleet insights' reads (live/insights/data.ts): the hours of activity (table activity, written by live/activity.ts)
// summed per device, driver or hour over a span of whole UTC hours, and the counts of the events behind the
// dashboard's trips and overspeeds. The sums run in the store (a month of a hundred vehicles is ~76,000 rows; only
// the groups come back); the device list and the night hours each travel as one parameter (anyOf). The sums are
// read on the read pool (rowsAsync, db/pool.ts).
import { ACTIVITY_SUMS, type ScoreTotals } from '@rastro/domain';
import { sql, type Compilable } from 'kysely';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, preparedQuery, qb, rowsAsync } from './query.ts';

/** Summed activity of one device or one driver (key). */
export interface KeyTotals extends ScoreTotals {
  key: string | number;
}

/** The activity rows of the devices in the hours [firstHour, lastHour] (hours since the epoch). */
function activityIn(db: SqlDatabase, deviceIds: readonly number[], firstHour: number, lastHour: number) {
  return qb(db)
    .selectFrom('activity')
    .where(anyOf(db, 'deviceId', deviceIds))
    .where('hour', '>=', firstHour)
    .where('hour', '<=', lastHour);
}

/**
 * Each sum of ACTIVITY_SUMS, and the driving time in the `night` hours (nightMs), per device or per driver (drivers
 * with a code only) of the devices in the hours [firstHour, lastHour].
 */
export function activityTotals(
  db: SqlDatabase,
  by: 'device' | 'driver',
  deviceIds: readonly number[],
  firstHour: number,
  lastHour: number,
  night: readonly number[],
): Promise<KeyTotals[]> {
  const sums = [
    ...ACTIVITY_SUMS.map((c) => sql<number>`sum(${sql.ref(c)})`.as(c)),
    sql<number>`sum(case when ${anyOf(db, 'hour', night)} then ${sql.ref('drivingMs')} else 0 end)`.as(
      'nightMs',
    ),
  ];
  const rowsIn = activityIn(db, deviceIds, firstHour, lastHour);
  const query =
    by === 'device'
      ? rowsIn.select('deviceId as key').select(sums).groupBy('deviceId')
      : rowsIn.select('driver as key').select(sums).where('driver', '<>', '').groupBy('driver');
  return rowsAsync(db, query as Compilable<unknown> as Compilable<KeyTotals>);
}

/** Distance per hour (since the epoch) of the devices in the hours [firstHour, lastHour]. */
export function distanceByHour(
  db: SqlDatabase,
  deviceIds: readonly number[],
  firstHour: number,
  lastHour: number,
): Promise<Array<{ hour: number; distance: number }>> {
  return rowsAsync(
    db,
    activityIn(db, deviceIds, firstHour, lastHour)
      .select(['hour', sql<number>`sum(${sql.ref('distance')})`.as('distance')])
      .groupBy('hour'),
  );
}

/**
 * How many deviceStopped and deviceOverspeed events a device had with `from` ≤ eventTime < `to` (ISO), by type;
 * prepared once per store (the dashboard asks it per device).
 */
export function prepareInsightEventCounts(db: SqlDatabase) {
  return preparedQuery<{ deviceId: number; from: string; to: string }, { type: string; n: number }>(
    db,
    ['deviceId', 'from', 'to'],
    (p) =>
      qb(db)
        .selectFrom('events')
        .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('deviceId', '=', p.deviceId)
        .where('eventTime', '>=', p.from)
        .where('eventTime', '<', p.to)
        .where('type', 'in', ['deviceStopped', 'deviceOverspeed'])
        .groupBy('type'),
  );
}
