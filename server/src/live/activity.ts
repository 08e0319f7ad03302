// The hours of activity of fleet insights (docs/insights.md): each newest position adds what the interval from the
// device's previous position holds (packages/domain activityStep) to the row of its device, UTC hour and driver:
// on SQLite in the same transaction as the position; on PostgreSQL once the position's batch is stored, held in
// memory and added every few seconds (db/repos/ingestPooled.ts HeldActivity, issue #30, session 47). The dashboard
// and the scores sum these rows. Positions that arrive out of order (older than the device's newest) are not counted.
import type { SqlDatabase } from '../db/sql.ts';
import { addActivityRows, anyActivity } from '../db/repos/ingest.ts';
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

/** A device's positions read per page by the rebuild. */
const REBUILD_PAGE = 5000;

/**
 * Fills the activity table from the stored positions, device by device in time order (a database that had positions
 * before the table existed). `speedLimit` gives each device's limit in knots (0 = none). Returns the positions read.
 * Without the main thread waiting (session 33): the positions read page by page on the read pool, each device's
 * hours added by addActivityRows (one autocommitted statement per 500 rows: no pooled transaction holding the rows
 * while a synchronous writer of the same rows could wait on them, decision 41's deadlock rule).
 */
export async function rebuildActivity(
  db: SqlDatabase,
  speedLimit: (deviceId: number) => number,
): Promise<number> {
  let count = 0;
  for (const deviceId of await deviceIdsWithPositions(db)) {
    const limit = speedLimit(deviceId);
    const sums = new Map<string, ActivityStep>();
    let prev: ActivityPoint | null = null;
    let after: { fixTime: string; id: number } | null = null;
    for (;;) {
      const page = await positionsForActivity(db, deviceId, after, REBUILD_PAGE);
      for (const row of page) {
        const attributes = parseAttributes(row.attributes);
        const point = activityPoint({
          fixTime: row.fixTime,
          speed: row.speed,
          course: row.course,
          attributes,
        });
        const step = activityStep(prev, point, limit);
        const key = `${activityHour(point.fixTime)}\u0000${driverOf({ attributes })}`;
        const sum = sums.get(key) ?? emptyStep();
        for (const c of COLUMNS) sum[c] += step[c];
        sum.maxSpeed = Math.max(sum.maxSpeed, step.maxSpeed);
        sums.set(key, sum);
        prev = point;
        count++;
      }
      if (page.length < REBUILD_PAGE) break;
      const last = page[page.length - 1];
      after = { fixTime: last.fixTime, id: Number(last.id) };
    }
    const rows = [...sums].map(([key, step]) => {
      const [hour, driver] = key.split('\u0000');
      return { deviceId, hour: Number(hour), driver, ...step };
    });
    await addActivityRows(db, rows);
  }
  return count;
}

/**
 * A store that had positions before the activity table existed gets its hours of activity once, at start; the
 * speed limits from the live cache read on the pool. A failure is logged, not thrown.
 */
export async function fillActivity(
  db: SqlDatabase,
  cache: { freshAsync(): Promise<{ deviceNumber(id: number, key: string): number | undefined }> },
  log: { info: (o: object, msg: string) => void; error: (o: object, msg: string) => void },
): Promise<void> {
  try {
    if (await anyActivity(db)) return;
    if (!(await anyPosition(db))) return;
    const fresh = await cache.freshAsync();
    const read = await rebuildActivity(db, (id) => fresh.deviceNumber(id, 'speedLimit') ?? 0);
    log.info({ positions: read }, 'hours of activity filled from the stored positions');
  } catch (err) {
    log.error({ err }, 'hours of activity not filled');
  }
}
