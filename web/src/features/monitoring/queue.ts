// The desk's queue (issue #32): alarms sorted by severity (critical first), then age (oldest first), as the
// server sorts them; alarms pushed by the socket are merged in (replacing an older copy, dropped when they no
// longer match the filters); the live age of each alarm.
import { ALARM_SEVERITIES, type Alarm } from '@rastro/domain';
import type { AlarmFilters } from './api.ts';

const rank = (a: Alarm) => ALARM_SEVERITIES.indexOf(a.severity);

export function sortQueue(alarms: readonly Alarm[]): Alarm[] {
  return [...alarms].sort(
    (a, b) => rank(a) - rank(b) || Date.parse(a.time) - Date.parse(b.time) || a.id - b.id,
  );
}

/** Whether an alarm belongs in the list the filters ask for. */
export function matchesFilters(alarm: Alarm, f: AlarmFilters): boolean {
  if (f.state === 'active' && alarm.state === 'resolved') return false;
  if (f.state !== 'active' && f.state !== 'all' && alarm.state !== f.state) return false;
  if (f.type && alarm.type !== f.type) return false;
  if (f.deviceId && alarm.deviceId !== f.deviceId) return false;
  return true;
}

/** The list with the socket's alarms merged in, sorted. */
export function mergeAlarms(list: readonly Alarm[], incoming: readonly Alarm[], f: AlarmFilters): Alarm[] {
  const byId = new Map(list.map((a) => [a.id, a]));
  for (const a of incoming) {
    if (matchesFilters(a, f)) byId.set(a.id, a);
    else byId.delete(a.id);
  }
  return sortQueue([...byId.values()]);
}

/** Age since `time` as "m:ss" under an hour, else "h:mm:ss" (a running timer). */
export function alarmAge(time: string, nowMs: number): string {
  const s = Math.max(0, Math.floor((nowMs - Date.parse(time)) / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** Whether the desk must keep ringing: an alarm nobody acknowledged yet. */
export const needsAttention = (alarms: readonly Alarm[]) => alarms.some((a) => a.state === 'open');
