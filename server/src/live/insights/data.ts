// Reads of fleet insights: the hours of activity (activity table, live/activity.ts) summed per device, hour and
// driver over whole UTC hours, and the counts of the events that explain the dashboard's stops and overspeeds.
import type { SqlDatabase, SqlStatement } from '../../db/sql.ts';
import { ACTIVITY_SUMS, HOUR_MS, type ScoreTotals } from '@rastro/domain';

/** Summed activity of one device or one driver (key). */
export interface KeyTotals extends ScoreTotals {
  key: string | number;
}

const SUMS = ACTIVITY_SUMS;

/** The hours [from, to] cover: from the hour holding `from` to the hour holding `to`. */
export const hourSpan = (from: number, to: number): [number, number] => [
  Math.floor(from / HOUR_MS),
  Math.floor(to / HOUR_MS),
];

// The sums run in SQLite (a month of a hundred vehicles is ~76,000 rows; only the groups come back). The device
// list and the night hours are JSON arrays read by json_each, materialised once per query.
const IN_DEVICES = 'deviceId IN (SELECT value FROM json_each(@devices))';
const SUM_COLUMNS = SUMS.map((c) => `SUM(${c}) AS ${c}`).join(', ');
const NIGHT =
  'SUM(CASE WHEN hour IN (SELECT value FROM json_each(@night)) THEN drivingMs ELSE 0 END) AS nightMs';

export class InsightsData {
  private readonly s: {
    byDevice: SqlStatement;
    byDriver: SqlStatement;
    byHour: SqlStatement;
    events: SqlStatement;
    drivers: SqlStatement;
  };

  constructor(db: SqlDatabase) {
    const where = `WHERE ${IN_DEVICES} AND hour >= @a AND hour <= @b`;
    this.s = {
      byDevice: db.prepare(
        `SELECT deviceId AS key, ${SUM_COLUMNS}, ${NIGHT} FROM activity ${where} GROUP BY deviceId`,
      ),
      byDriver: db.prepare(
        `SELECT driver AS key, ${SUM_COLUMNS}, ${NIGHT} FROM activity ${where} AND driver <> '' GROUP BY driver`,
      ),
      byHour: db.prepare(`SELECT hour, SUM(distance) AS distance FROM activity ${where} GROUP BY hour`),
      events: db.prepare(
        `SELECT type, COUNT(*) AS n FROM events
         WHERE deviceId = ? AND eventTime >= ? AND eventTime < ? AND type IN ('deviceStopped', 'deviceOverspeed')
         GROUP BY type`,
      ),
      drivers: db.prepare('SELECT uniqueId, name FROM drivers'),
    };
  }

  /**
   * The sums of the devices between two instants (whole hours), per device or per driver; `night` lists the hours
   * (since the epoch) that are night in the reader's time zone.
   */
  totals(
    by: 'device' | 'driver',
    deviceIds: readonly number[],
    from: number,
    to: number,
    night: readonly number[] = [],
  ): KeyTotals[] {
    const [a, b] = hourSpan(from, to);
    const params = { devices: JSON.stringify(deviceIds), night: JSON.stringify(night), a, b };
    return (by === 'device' ? this.s.byDevice : this.s.byDriver).all(params) as KeyTotals[];
  }

  /** Distance per hour (since the epoch) of the devices between two instants. */
  distanceByHour(
    deviceIds: readonly number[],
    from: number,
    to: number,
  ): Array<{ hour: number; distance: number }> {
    const [a, b] = hourSpan(from, to);
    return this.s.byHour.all({ devices: JSON.stringify(deviceIds), a, b }) as Array<{
      hour: number;
      distance: number;
    }>;
  }

  /** Trips ended (deviceStopped) and overspeed events of one device in [from, to]. */
  eventCounts(deviceId: number, from: number, to: number): { stops: number; overspeeds: number } {
    const rows = this.s.events.all(
      deviceId,
      new Date(from).toISOString(),
      new Date(to + 1).toISOString(),
    ) as Array<{ type: string; n: number }>;
    const n = (type: string) => rows.find((r) => r.type === type)?.n ?? 0;
    return { stops: n('deviceStopped'), overspeeds: n('deviceOverspeed') };
  }

  driverNames(): Map<string, string> {
    const rows = this.s.drivers.all() as Array<{ uniqueId: string; name: string }>;
    return new Map(rows.map((r) => [r.uniqueId, r.name]));
  }
}

export const emptyTotals = (): ScoreTotals => ({
  distance: 0,
  drivingMs: 0,
  idleMs: 0,
  nightMs: 0,
  overspeedMs: 0,
  overspeedExcess: 0,
  harshAcceleration: 0,
  harshBraking: 0,
  harshCornering: 0,
  alarmAcceleration: 0,
  alarmBraking: 0,
  alarmCornering: 0,
});
