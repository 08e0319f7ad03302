// The alarms report (issue #32, GET /{ns}/reports/alarms): counts per type, time to acknowledge and to resolve
// (median and 90th percentile, minutes) overall and per operator, from the alarms of a period.
import { MONITORING_ALARM_TYPES, type MonitoringAlarmType } from './alarms.ts';

/** What the report reads of one alarm. */
export interface AlarmFacts {
  type: MonitoringAlarmType;
  time: string;
  ackTime: string | null;
  ackUserId: number | null;
  resolveTime: string | null;
  resolveUserId: number | null;
}

export interface AlarmTimes {
  count: number;
  resolved: number;
  /** Minutes, null when nothing was acknowledged / resolved. */
  ackMedian: number | null;
  ackP90: number | null;
  resolveMedian: number | null;
  resolveP90: number | null;
}

export interface AlarmReport extends AlarmTimes {
  byType: Array<{ type: MonitoringAlarmType; count: number }>;
  /** Per operator: the alarms it acknowledged or (without an acknowledgement) resolved. */
  byOperator: Array<AlarmTimes & { userId: number; name: string }>;
}

/** The p-th percentile (0–1) by nearest rank of sorted values; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
const minutes = (from: string, to: string | null) =>
  to === null ? null : Math.max(0, (Date.parse(to) - Date.parse(from)) / 60_000);

function times(alarms: readonly AlarmFacts[]): AlarmTimes {
  const ack = alarms.map((a) => minutes(a.time, a.ackTime)).filter((m): m is number => m !== null);
  const res = alarms.map((a) => minutes(a.time, a.resolveTime)).filter((m): m is number => m !== null);
  ack.sort((a, b) => a - b);
  res.sort((a, b) => a - b);
  return {
    count: alarms.length,
    resolved: res.length,
    ackMedian: round1(percentile(ack, 0.5)),
    ackP90: round1(percentile(ack, 0.9)),
    resolveMedian: round1(percentile(res, 0.5)),
    resolveP90: round1(percentile(res, 0.9)),
  };
}

/** The report of a period's alarms; `names` gives the operators' names. */
export function alarmReport(alarms: readonly AlarmFacts[], names: ReadonlyMap<number, string>): AlarmReport {
  const byType = MONITORING_ALARM_TYPES.map((type) => ({
    type,
    count: alarms.filter((a) => a.type === type).length,
  })).filter((t) => t.count > 0);
  const byUser = new Map<number, AlarmFacts[]>();
  for (const a of alarms) {
    const who = a.ackUserId ?? a.resolveUserId;
    if (who === null) continue;
    const list = byUser.get(who) ?? [];
    list.push(a);
    byUser.set(who, list);
  }
  const byOperator = [...byUser]
    .map(([userId, list]) => ({ userId, name: names.get(userId) ?? String(userId), ...times(list) }))
    .sort((a, b) => b.count - a.count || a.userId - b.userId);
  return { ...times(alarms), byType, byOperator };
}
