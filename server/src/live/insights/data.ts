// Reads of fleet insights through their repository (db/repos/insights.ts): the hours of activity (activity table,
// live/activity.ts) summed per device, hour and driver over whole UTC hours, and the counts of the events that
// explain the dashboard's stops and overspeeds, read on the store's read pool (db/pool.ts). On PostgreSQL the hours
// this process holds (db/repos/ingestPooled.ts HeldActivity) are added before they are read.
import { allDriverNames } from '../../db/repos/catalog.ts';
import {
  activityTotals,
  distanceByHour,
  prepareInsightEventCounts,
  type KeyTotals,
} from '../../db/repos/insights.ts';
import { writeHeldActivity } from '../../db/repos/ingestPooled.ts';
import type { SqlDatabase } from '../../db/sql.ts';
import { HOUR_MS, type ScoreTotals } from '@rastro/domain';

/** The hours [from, to] cover: from the hour holding `from` to the hour holding `to`. */
export const hourSpan = (from: number, to: number): [number, number] => [
  Math.floor(from / HOUR_MS),
  Math.floor(to / HOUR_MS),
];

export class InsightsData {
  private readonly counts: ReturnType<typeof prepareInsightEventCounts>;

  constructor(private readonly db: SqlDatabase) {
    this.counts = prepareInsightEventCounts(db);
  }

  /**
   * The sums of the devices between two instants (whole hours), per device or per driver; `night` lists the hours
   * (since the epoch) that are night in the reader's time zone.
   */
  async totals(
    by: 'device' | 'driver',
    deviceIds: readonly number[],
    from: number,
    to: number,
    night: readonly number[] = [],
  ): Promise<KeyTotals[]> {
    const [a, b] = hourSpan(from, to);
    await writeHeldActivity(this.db); // what this process holds of the hours first (PostgreSQL)
    return activityTotals(this.db, by, deviceIds, a, b, night);
  }

  /** Distance per hour (since the epoch) of the devices between two instants. */
  async distanceByHour(
    deviceIds: readonly number[],
    from: number,
    to: number,
  ): Promise<Array<{ hour: number; distance: number }>> {
    const [a, b] = hourSpan(from, to);
    await writeHeldActivity(this.db);
    return distanceByHour(this.db, deviceIds, a, b);
  }

  /** Trips ended (deviceStopped) and overspeed events of one device in [from, to]. */
  async eventCounts(
    deviceId: number,
    from: number,
    to: number,
  ): Promise<{ stops: number; overspeeds: number }> {
    const rows = await this.counts.allAsync({
      deviceId,
      from: new Date(from).toISOString(),
      to: new Date(to + 1).toISOString(),
    });
    const n = (type: string) => rows.find((r) => r.type === type)?.n ?? 0;
    return { stops: n('deviceStopped'), overspeeds: n('deviceOverspeed') };
  }

  async driverNames(): Promise<Map<string, string>> {
    return new Map((await allDriverNames(this.db)).map((r) => [r.uniqueId, r.name]));
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
