// The monitoring center's alarm queue in the store (issue #32, tables alarms and alarm_notes, both dialects): raise
// (folding a repeat into the unresolved alarm of the same device and type), list and read with names, the steps
// (ack, assign, resolve) written only from the states they are allowed from, notes, and the report's rows. Each
// query is built with kysely and compiled for the store's dialect (db/repos/query.ts) and runs asynchronously
// (issue #30, session 33): reads on the read pool, writes on the write client (PostgreSQL), on the one connection
// behind sqliteTurn on SQLite; the writes take the store or an inTransaction handle.
import { sql } from 'kysely';
import {
  ALARM_SEVERITY,
  type Alarm,
  type AlarmFacts,
  type AlarmNote,
  type AlarmOutcome,
  type AlarmState,
  type MonitoringAlarmType,
} from '@rastro/domain';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, insertAsync, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

/** A row of the alarm query: the API's alarm before its notes, with the start time and device name as stored. */
type AlarmRow = Omit<Alarm, 'time' | 'deviceName' | 'notes'> & {
  startTime: string;
  deviceName: string | null;
};

function toAlarm(r: AlarmRow, notes: AlarmNote[]): Alarm {
  const { startTime, deviceName, ...rest } = r;
  return { ...rest, deviceName: deviceName ?? '', time: startTime, notes };
}

export interface RaisedAlarm {
  deviceId: number;
  type: MonitoringAlarmType;
  detail: string;
  positionId: number;
  /** ISO time of the position (or of the detection). */
  time: string;
}

export interface AlarmFilter {
  /** Devices the caller sees; null = every device (an administrator). */
  deviceIds: number[] | null;
  /** Unresolved only (default) or every state. */
  all: boolean;
  state?: AlarmState;
  type?: MonitoringAlarmType;
  deviceId?: number;
  from?: string;
  to?: string;
  limit: number;
}

export class AlarmsRepo {
  constructor(private readonly sql: SqlDatabase) {}

  /** An alarm with its device's name, its position and the names of who was assigned, acknowledged, resolved. */
  private selectAlarms() {
    return qb(this.sql)
      .selectFrom('alarms as a')
      .leftJoin('devices as d', 'd.id', 'a.deviceId')
      .leftJoin('positions as p', 'p.id', 'a.positionId')
      .leftJoin('users as au', 'au.id', 'a.assignedUserId')
      .leftJoin('users as ku', 'ku.id', 'a.ackUserId')
      .leftJoin('users as ru', 'ru.id', 'a.resolveUserId')
      .select([
        'a.id',
        'a.deviceId',
        'd.name as deviceName',
        'a.type',
        'a.detail',
        'a.severity',
        'a.positionId',
        'p.latitude',
        'p.longitude',
        'a.startTime',
        'a.lastTime',
        'a.count',
        'a.state',
        'a.assignedUserId',
        'au.name as assignedUserName',
        'a.ackUserId',
        'ku.name as ackUserName',
        'a.ackTime',
        'a.resolveUserId',
        'ru.name as resolveUserName',
        'a.resolveTime',
        'a.outcome',
      ]);
  }

  /**
   * Stores an alarm, or folds it into the unresolved one of the same device and type (count + 1, last time and
   * position). Returns the alarm's id and whether it is new. `db` is the store or a transaction's handle
   * (query.ts inTransaction): the detector stores a batch's alarms in one. Another process inserting the same
   * device and type at the same time meets the unique index: the INSERT skips (ON CONFLICT DO NOTHING, no error that
   * would end a PostgreSQL transaction) and the alarm is folded into the row it committed.
   */
  async raise(a: RaisedAlarm, db: SqlDatabase = this.sql): Promise<{ id: number; created: boolean }> {
    const fold = async () => {
      const found = await rowAsync(
        db,
        qb(db)
          .selectFrom('alarms')
          .select('id')
          .where('deviceId', '=', a.deviceId)
          .where('type', '=', a.type)
          .where('state', '<>', 'resolved'),
      );
      if (!found) return null;
      await writeAsync(
        db,
        qb(db)
          .updateTable('alarms')
          .set((eb) => ({
            count: eb('count', '+', 1),
            lastTime: a.time,
            lastPositionId: a.positionId,
            detail: eb.case().when('detail', '=', '').then(a.detail).else(eb.ref('detail')).end(),
          }))
          .where('id', '=', found.id),
      );
      return { id: Number(found.id), created: false };
    };
    const folded = await fold();
    if (folded) return folded;
    const id = await insertAsync(
      db,
      qb(db)
        .insertInto('alarms')
        .values({
          deviceId: a.deviceId,
          type: a.type,
          detail: a.detail,
          severity: ALARM_SEVERITY[a.type],
          positionId: a.positionId,
          lastPositionId: a.positionId,
          startTime: a.time,
          lastTime: a.time,
          count: 1,
          state: 'open',
        })
        .onConflict((oc) => oc.doNothing()),
    );
    if (id) return { id, created: true };
    return (await fold()) ?? { id: 0, created: false };
  }

  /** Whether an alarm of `type` already names this position (the signal-lost job raises once per last report). */
  async hasForPosition(deviceId: number, type: MonitoringAlarmType, positionId: number): Promise<boolean> {
    return !!(await rowAsync(
      this.sql,
      qb(this.sql)
        .selectFrom('alarms')
        .select('id')
        .where('deviceId', '=', deviceId)
        .where('type', '=', type)
        .where((eb) => eb.or([eb('positionId', '=', positionId), eb('lastPositionId', '=', positionId)]))
        .limit(1),
    ));
  }

  /**
   * Devices whose latest position was received before `before` (and within the day before it) moving faster than
   * `minSpeed` knots: the signal-lost job's candidates.
   */
  silentDevices(
    before: string,
    minSpeed: number,
  ): Promise<Array<{ deviceId: number; positionId: number; speed: number; serverTime: string }>> {
    const since = new Date(Date.parse(before) - 86_400_000).toISOString();
    return rowsAsync(
      this.sql,
      qb(this.sql)
        .selectFrom('devices as d')
        .innerJoin('positions as p', 'p.id', 'd.positionId')
        .select(['d.id as deviceId', 'p.id as positionId', 'p.speed', 'p.serverTime'])
        .where('d.disabled', '=', 0)
        .where('p.serverTime', '<', before)
        .where('p.serverTime', '>=', since)
        .where('p.speed', '>', minSpeed),
    );
  }

  async list(f: AlarmFilter): Promise<Alarm[]> {
    let q = this.selectAlarms();
    if (f.deviceIds) q = q.where(anyOf(this.sql, 'a.deviceId', f.deviceIds));
    if (f.state) q = q.where('a.state', '=', f.state);
    else if (!f.all) q = q.where('a.state', '<>', 'resolved');
    if (f.type) q = q.where('a.type', '=', f.type);
    if (f.deviceId) q = q.where('a.deviceId', '=', f.deviceId);
    if (f.from) q = q.where('a.lastTime', '>=', f.from);
    if (f.to) q = q.where('a.startTime', '<=', f.to);
    const found = (await rowsAsync(
      this.sql,
      q
        // the most severe first, then the oldest
        .orderBy(
          sql`case ${sql.ref('a.severity')} when 'critical' then 0 when 'high' then 1 when 'medium' then 2 else 3 end`,
        )
        .orderBy('a.startTime')
        .orderBy('a.id')
        .limit(Math.trunc(f.limit)),
    )) as AlarmRow[];
    const notes = await this.notesOf(found.map((r) => r.id));
    return found.map((r) => toAlarm(r, notes.get(r.id) ?? []));
  }

  async get(id: number): Promise<Alarm | null> {
    const found = (await rowAsync(this.sql, this.selectAlarms().where('a.id', '=', id))) as
      AlarmRow | undefined;
    return found ? toAlarm(found, (await this.notesOf([id])).get(id) ?? []) : null;
  }

  private async notesOf(ids: number[]): Promise<Map<number, AlarmNote[]>> {
    const out = new Map<number, AlarmNote[]>();
    if (!ids.length) return out;
    const found = await rowsAsync(
      this.sql,
      qb(this.sql)
        .selectFrom('alarm_notes as n')
        .leftJoin('users as u', 'u.id', 'n.userId')
        .select(['n.id', 'n.alarmId', 'n.userId', 'u.name as userName', 'n.noteTime', 'n.text'])
        .where(anyOf(this.sql, 'n.alarmId', ids))
        .orderBy('n.id'),
    );
    for (const r of found) {
      const list = out.get(r.alarmId) ?? [];
      list.push({
        id: r.id,
        alarmId: r.alarmId,
        userId: r.userId,
        userName: r.userName ?? '',
        time: r.noteTime,
        text: r.text,
      });
      out.set(r.alarmId, list);
    }
    return out;
  }

  /** Adds a note (`db`: the store or a transaction's handle, as for the steps below). */
  async addNote(
    alarmId: number,
    userId: number,
    text: string,
    time: string,
    db: SqlDatabase = this.sql,
  ): Promise<void> {
    await writeAsync(db, qb(db).insertInto('alarm_notes').values({ alarmId, userId, noteTime: time, text }));
  }

  /** open → acknowledged (and assigned to whoever acknowledged it when nobody was); false when not open any more. */
  async acknowledge(id: number, userId: number, time: string, db: SqlDatabase = this.sql): Promise<boolean> {
    const changed = await writeAsync(
      db,
      qb(db)
        .updateTable('alarms')
        .set((eb) => ({
          state: 'acknowledged',
          ackUserId: userId,
          ackTime: time,
          assignedUserId: eb.fn.coalesce('assignedUserId', eb.val(userId)),
        }))
        .where('id', '=', id)
        .where('state', '=', 'open'),
    );
    return changed === 1;
  }

  /** Assigns an unresolved alarm; false when resolved meanwhile. */
  async assign(id: number, userId: number, db: SqlDatabase = this.sql): Promise<boolean> {
    const changed = await writeAsync(
      db,
      qb(db)
        .updateTable('alarms')
        .set({ assignedUserId: userId })
        .where('id', '=', id)
        .where('state', '<>', 'resolved'),
    );
    return changed === 1;
  }

  /** open or acknowledged → resolved with an outcome; false when already resolved. */
  async resolve(
    id: number,
    userId: number,
    outcome: AlarmOutcome,
    time: string,
    db: SqlDatabase = this.sql,
  ): Promise<boolean> {
    const changed = await writeAsync(
      db,
      qb(db)
        .updateTable('alarms')
        .set({ state: 'resolved', resolveUserId: userId, resolveTime: time, outcome })
        .where('id', '=', id)
        .where('state', '<>', 'resolved'),
    );
    return changed === 1;
  }

  /** The alarms raised in [from, to] on the given devices (null: all), for the report. */
  async reportRows(from: string, to: string, deviceIds: number[] | null): Promise<AlarmFacts[]> {
    let q = qb(this.sql)
      .selectFrom('alarms')
      .select(['type', 'startTime as time', 'ackTime', 'ackUserId', 'resolveTime', 'resolveUserId'])
      .where('startTime', '>=', from)
      .where('startTime', '<=', to);
    if (deviceIds) q = q.where(anyOf(this.sql, 'deviceId', deviceIds));
    return (await rowsAsync(this.sql, q.orderBy('startTime'))) as AlarmFacts[];
  }

  async userNames(ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const found = await rowsAsync(
      this.sql,
      qb(this.sql)
        .selectFrom('users')
        .select(['id', 'name'])
        .where(anyOf(this.sql, 'id', ids)),
    );
    return new Map(found.map((r) => [r.id, r.name]));
  }
}
