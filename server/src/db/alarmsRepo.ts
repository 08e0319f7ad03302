// The monitoring center's alarm queue in the store (issue #32, tables alarms and alarm_notes, both dialects): raise
// (folding a repeat into the unresolved alarm of the same device and type), list and read with names, the steps
// (ack, assign, resolve) written only from the states they are allowed from, notes, and the report's rows.
import {
  ALARM_SEVERITY,
  type Alarm,
  type AlarmFacts,
  type AlarmNote,
  type AlarmOutcome,
  type AlarmState,
  type MonitoringAlarmType,
} from '@rastro/domain';
import { uniqueViolation, type SqlDatabase, type SqlStatement } from './sql.ts';

interface AlarmRow {
  id: number;
  deviceId: number;
  deviceName: string | null;
  type: MonitoringAlarmType;
  detail: string;
  severity: Alarm['severity'];
  positionId: number;
  latitude: number | null;
  longitude: number | null;
  startTime: string;
  lastTime: string;
  count: number;
  state: AlarmState;
  assignedUserId: number | null;
  assignedUserName: string | null;
  ackUserId: number | null;
  ackUserName: string | null;
  ackTime: string | null;
  resolveUserId: number | null;
  resolveUserName: string | null;
  resolveTime: string | null;
  outcome: AlarmOutcome | null;
}

const SELECT = `
  SELECT a.id, a.deviceId, d.name AS deviceName, a.type, a.detail, a.severity, a.positionId,
         p.latitude, p.longitude, a.startTime, a.lastTime, a.count, a.state,
         a.assignedUserId, au.name AS assignedUserName, a.ackUserId, ku.name AS ackUserName, a.ackTime,
         a.resolveUserId, ru.name AS resolveUserName, a.resolveTime, a.outcome
  FROM alarms a
  LEFT JOIN devices d ON d.id = a.deviceId
  LEFT JOIN positions p ON p.id = a.positionId
  LEFT JOIN users au ON au.id = a.assignedUserId
  LEFT JOIN users ku ON ku.id = a.ackUserId
  LEFT JOIN users ru ON ru.id = a.resolveUserId`;

const SEVERITY_ORDER = `CASE a.severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END`;

function toAlarm(r: AlarmRow, notes: AlarmNote[]): Alarm {
  return {
    id: r.id,
    deviceId: r.deviceId,
    deviceName: r.deviceName ?? '',
    type: r.type,
    detail: r.detail,
    severity: r.severity,
    positionId: r.positionId,
    latitude: r.latitude,
    longitude: r.longitude,
    time: r.startTime,
    lastTime: r.lastTime,
    count: r.count,
    state: r.state,
    assignedUserId: r.assignedUserId,
    assignedUserName: r.assignedUserName,
    ackUserId: r.ackUserId,
    ackUserName: r.ackUserName,
    ackTime: r.ackTime,
    resolveUserId: r.resolveUserId,
    resolveUserName: r.resolveUserName,
    resolveTime: r.resolveTime,
    outcome: r.outcome,
    notes,
  };
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
  private readonly statements = new Map<string, SqlStatement>();
  constructor(private readonly sql: SqlDatabase) {}

  /** The statement of `text`, prepared once (detection folds repeats at ingestion rates). */
  private prepared(text: string): SqlStatement {
    let s = this.statements.get(text);
    if (!s) this.statements.set(text, (s = this.sql.prepare(text)));
    return s;
  }

  /**
   * Stores an alarm, or folds it into the unresolved one of the same device and type (count + 1, last time and
   * position). Returns the alarm's id and whether it is new. Another process folding or inserting at the same time
   * meets the unique index and folds.
   */
  raise(a: RaisedAlarm): { id: number; created: boolean } {
    const fold = () => {
      const row = this.prepared(
        `SELECT id FROM alarms WHERE deviceId = ? AND type = ? AND state <> 'resolved'`,
      ).get(a.deviceId, a.type) as { id: number } | undefined;
      if (!row) return null;
      this.prepared(
        `UPDATE alarms SET count = count + 1, lastTime = ?, lastPositionId = ?,
           detail = CASE WHEN detail = '' THEN ? ELSE detail END WHERE id = ?`,
      ).run(a.time, a.positionId, a.detail, row.id);
      return { id: row.id, created: false };
    };
    // the insert in a nested transaction (a savepoint): a unique violation undoes only it, so the fold can follow
    // (PostgreSQL refuses any further statement in a transaction whose statement failed)
    const insert = this.sql.transaction(() =>
      Number(
        this.sql
          .prepare(
            `INSERT INTO alarms (deviceId, type, detail, severity, positionId, lastPositionId, startTime, lastTime,
               count, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 'open')`,
          )
          .run(
            a.deviceId,
            a.type,
            a.detail,
            ALARM_SEVERITY[a.type],
            a.positionId,
            a.positionId,
            a.time,
            a.time,
          ).lastInsertRowid,
      ),
    );
    return this.sql.transaction(() => {
      const folded = fold();
      if (folded) return folded;
      try {
        return { id: insert(), created: true };
      } catch (err) {
        if (!uniqueViolation(err)) throw err;
        return fold() ?? { id: 0, created: false };
      }
    })();
  }

  /** Whether an alarm of `type` already names this position (the signal-lost job raises once per last report). */
  hasForPosition(deviceId: number, type: MonitoringAlarmType, positionId: number): boolean {
    return !!this.sql
      .prepare(
        'SELECT 1 AS x FROM alarms WHERE deviceId = ? AND type = ? AND (positionId = ? OR lastPositionId = ?)',
      )
      .get(deviceId, type, positionId, positionId);
  }

  /**
   * Devices whose latest position was received before `before` (and within the day before it) moving faster than
   * `minSpeed` knots: the signal-lost job's candidates.
   */
  silentDevices(
    before: string,
    minSpeed: number,
  ): Array<{ deviceId: number; positionId: number; speed: number; serverTime: string }> {
    const since = new Date(Date.parse(before) - 86_400_000).toISOString();
    return this.sql
      .prepare(
        `SELECT d.id AS deviceId, p.id AS positionId, p.speed, p.serverTime FROM devices d
         JOIN positions p ON p.id = d.positionId
         WHERE d.disabled = 0 AND p.serverTime < ? AND p.serverTime >= ? AND p.speed > ?`,
      )
      .all(before, since, minSpeed) as Array<{
      deviceId: number;
      positionId: number;
      speed: number;
      serverTime: string;
    }>;
  }

  list(f: AlarmFilter): Alarm[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (f.deviceIds) {
      where.push('a.deviceId IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(f.deviceIds));
    }
    if (f.state) {
      where.push('a.state = ?');
      params.push(f.state);
    } else if (!f.all) where.push(`a.state <> 'resolved'`);
    if (f.type) {
      where.push('a.type = ?');
      params.push(f.type);
    }
    if (f.deviceId) {
      where.push('a.deviceId = ?');
      params.push(f.deviceId);
    }
    if (f.from) {
      where.push('a.lastTime >= ?');
      params.push(f.from);
    }
    if (f.to) {
      where.push('a.startTime <= ?');
      params.push(f.to);
    }
    const rows = this.sql
      .prepare(
        `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY ${SEVERITY_ORDER}, a.startTime, a.id LIMIT ${Math.trunc(f.limit)}`,
      )
      .all(...params) as AlarmRow[];
    const notes = this.notesOf(rows.map((r) => r.id));
    return rows.map((r) => toAlarm(r, notes.get(r.id) ?? []));
  }

  get(id: number): Alarm | null {
    const row = this.sql.prepare(`${SELECT} WHERE a.id = ?`).get(id) as AlarmRow | undefined;
    return row ? toAlarm(row, this.notesOf([id]).get(id) ?? []) : null;
  }

  private notesOf(ids: number[]): Map<number, AlarmNote[]> {
    const out = new Map<number, AlarmNote[]>();
    if (!ids.length) return out;
    const rows = this.sql
      .prepare(
        `SELECT n.id, n.alarmId, n.userId, u.name AS userName, n.noteTime, n.text FROM alarm_notes n
         LEFT JOIN users u ON u.id = n.userId
         WHERE n.alarmId IN (SELECT value FROM json_each(?)) ORDER BY n.id`,
      )
      .all(JSON.stringify(ids)) as Array<
      Omit<AlarmNote, 'time'> & { noteTime: string; userName: string | null }
    >;
    for (const r of rows) {
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

  addNote(alarmId: number, userId: number, text: string, time: string): void {
    this.sql
      .prepare('INSERT INTO alarm_notes (alarmId, userId, noteTime, text) VALUES (?, ?, ?, ?)')
      .run(alarmId, userId, time, text);
  }

  /** open → acknowledged (and assigned to whoever acknowledged it when nobody was); false when not open any more. */
  acknowledge(id: number, userId: number, time: string): boolean {
    return (
      this.sql
        .prepare(
          `UPDATE alarms SET state = 'acknowledged', ackUserId = ?, ackTime = ?,
             assignedUserId = COALESCE(assignedUserId, ?) WHERE id = ? AND state = 'open'`,
        )
        .run(userId, time, userId, id).changes === 1
    );
  }

  /** Assigns an unresolved alarm; false when resolved meanwhile. */
  assign(id: number, userId: number): boolean {
    return (
      this.sql
        .prepare(`UPDATE alarms SET assignedUserId = ? WHERE id = ? AND state <> 'resolved'`)
        .run(userId, id).changes === 1
    );
  }

  /** open or acknowledged → resolved with an outcome; false when already resolved. */
  resolve(id: number, userId: number, outcome: AlarmOutcome, time: string): boolean {
    return (
      this.sql
        .prepare(
          `UPDATE alarms SET state = 'resolved', resolveUserId = ?, resolveTime = ?, outcome = ?
           WHERE id = ? AND state <> 'resolved'`,
        )
        .run(userId, time, outcome, id).changes === 1
    );
  }

  /** The alarms raised in [from, to] on the given devices (null: all), for the report. */
  reportRows(from: string, to: string, deviceIds: number[] | null): AlarmFacts[] {
    const scope = deviceIds ? 'AND deviceId IN (SELECT value FROM json_each(?))' : '';
    const params: unknown[] = [from, to];
    if (deviceIds) params.push(JSON.stringify(deviceIds));
    return this.sql
      .prepare(
        `SELECT type, startTime AS time, ackTime, ackUserId, resolveTime, resolveUserId FROM alarms
         WHERE startTime >= ? AND startTime <= ? ${scope} ORDER BY startTime`,
      )
      .all(...params) as AlarmFacts[];
  }

  userNames(ids: number[]): Map<number, string> {
    if (!ids.length) return new Map();
    const rows = this.sql
      .prepare('SELECT id, name FROM users WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as Array<{ id: number; name: string }>;
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
