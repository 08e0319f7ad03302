// The hours of activity of fleet insights (docs/insights.md): each newest position adds what the interval from the
// device's previous position holds (packages/domain activityStep) to the row of its device, UTC hour and driver,
// in the same transaction as the position. The dashboard and the scores sum these rows. Positions that arrive out
// of order (older than the device's newest) are not counted.
import type { SqlDatabase } from '../db/sql.ts';
import { anyActivity } from '../db/repos/ingest.ts';
import { activityWrites, type ActivityRow } from '../db/repos/ingestBatch.ts';
import { anyPosition, deviceIdsWithPositions, positionsForActivity } from '../db/repos/positions.ts';
import {
  ACTIVITY_SUMS,
  activityHour,
  activityStep,
  emptyStep,
  type ActivityPoint,
  type ActivityStep,
  type Position,
} from '@rastro/domain';

const COLUMNS = ACTIVITY_SUMS;

/** A stored position as the activity rules read it. */
type Located = Pick<Position, 'fixTime' | 'speed' | 'course'> & { attributes: Record<string, unknown> };

export function activityPoint(p: Located): ActivityPoint {
  const a = p.attributes;
  const distance = Number(a.distance);
  return {
    fixTime: Date.parse(p.fixTime),
    speed: p.speed,
    course: p.course,
    motion: a.motion === true,
    ignition: typeof a.ignition === 'boolean' ? a.ignition : undefined,
    distance: Number.isFinite(distance) ? distance : 0,
    alarm: typeof a.alarm === 'string' ? a.alarm : '',
  };
}

function parseAttributes(text: string | null): Record<string, unknown> {
  try {
    const v: unknown = text ? JSON.parse(text) : null;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const driverOf = (p: { attributes: Record<string, unknown> }): string => {
  const d = p.attributes.driverUniqueId;
  return typeof d === 'string' ? d.trim().slice(0, 128) : '';
};

export class ActivityRecorder {
  /** One upsert per row on SQLite; on PostgreSQL a transaction's rows as one statement (ingestBatch.ts). */
  private readonly upsert: (row: ActivityRow) => void;

  constructor(db: SqlDatabase) {
    this.upsert = activityWrites(db);
  }

  /** Files what `position` adds after `prev` (the device's previous newest position, or null). */
  record(deviceId: number, prev: Position | null, position: Position, speedLimit: number): void {
    const step = activityStep(prev ? activityPoint(prev) : null, activityPoint(position), speedLimit);
    this.add(deviceId, activityHour(Date.parse(position.fixTime)), driverOf(position), step);
  }

  /** Where the rows go instead of the store (a pooled batch's rows while it is computed: live/ingest.ts). */
  into: ((row: ActivityRow) => void) | null = null;

  add(deviceId: number, hour: number, driver: string, step: ActivityStep): void {
    (this.into ?? this.upsert)({ deviceId, hour, driver, ...step });
  }
}

/**
 * Fills the activity table from the stored positions, device by device in time order (a database that had positions
 * before the table existed). `speedLimit` gives each device's limit in knots (0 = none). Returns the positions read.
 */
export function rebuildActivity(db: SqlDatabase, speedLimit: (deviceId: number) => number): number {
  const recorder = new ActivityRecorder(db);
  const devices = deviceIdsWithPositions(db);
  let count = 0;
  for (const deviceId of devices) {
    const limit = speedLimit(deviceId);
    const sums = new Map<string, ActivityStep>();
    let prev: ActivityPoint | null = null;
    for (const row of positionsForActivity(db, deviceId)) {
      const attributes = parseAttributes(row.attributes);
      const point = activityPoint({ fixTime: row.fixTime, speed: row.speed, course: row.course, attributes });
      const step = activityStep(prev, point, limit);
      const key = `${activityHour(point.fixTime)}\u0000${driverOf({ attributes })}`;
      const sum = sums.get(key) ?? emptyStep();
      for (const c of COLUMNS) sum[c] += step[c];
      sum.maxSpeed = Math.max(sum.maxSpeed, step.maxSpeed);
      sums.set(key, sum);
      prev = point;
      count++;
    }
    db.transaction(() => {
      for (const [key, step] of sums) {
        const [hour, driver] = key.split('\u0000');
        recorder.add(deviceId, Number(hour), driver, step);
      }
    })();
  }
  return count;
}

/** A store that had positions before the activity table existed gets its hours of activity once, at start. */
export function fillActivity(
  db: SqlDatabase,
  speedLimit: (deviceId: number) => number,
  log: { info: (o: object, msg: string) => void },
): void {
  if (anyActivity(db)) return;
  if (!anyPosition(db)) return;
  const read = rebuildActivity(db, speedLimit);
  log.info({ positions: read }, 'hours of activity filled from the stored positions');
}
