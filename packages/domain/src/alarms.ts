// The monitoring center's alarm queue (issue #32, docs/monitoring.md): alarm types and severities, the settings
// the detection rules read ({ns}.alarms.* server attributes), the queue's states and their transitions, the
// request schemas of /{ns}/alarms and who may act on an alarm. The rules themselves are alarmRules.ts.
import { z } from 'zod';
import { nsKey } from './attributes.ts';
import { booleanText, numericText, zonedDate } from './schemas/common.ts';
import { isReadonly, permissionBit, type PermissionContext } from './permissions.ts';
import { MONITORING_ACT_BIT, isMonitoringOperator } from './monitoringAccess.ts';

export const MONITORING_ALARM_TYPES = [
  'sos',
  'powerCut',
  'tampering',
  'deviceAlarm',
  'towing',
  'signalLost',
  'parkedMovement',
  'anchorExit',
  'overspeed',
  'noDriver',
] as const;
export type MonitoringAlarmType = (typeof MONITORING_ALARM_TYPES)[number];

export const ALARM_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** The severity of each type: the desk's queue is sorted by it (critical first), then by age (oldest first). */
export const ALARM_SEVERITY: Record<MonitoringAlarmType, AlarmSeverity> = {
  sos: 'critical',
  towing: 'high',
  signalLost: 'high',
  anchorExit: 'high',
  parkedMovement: 'high',
  powerCut: 'high',
  tampering: 'high',
  deviceAlarm: 'medium',
  noDriver: 'medium',
  overspeed: 'low',
};

export const ALARM_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

export const ALARM_OUTCOMES = [
  'falseAlarm',
  'recovered',
  'customerInformed',
  'policeCalled',
  'other',
] as const;
export type AlarmOutcome = (typeof ALARM_OUTCOMES)[number];

/** A step of the queue. */
export type AlarmStep = 'ack' | 'assign' | 'note' | 'resolve';

/**
 * Whether `step` may be taken from `state`: acknowledge only an open alarm, resolve an open or acknowledged one,
 * assign and annotate any alarm not resolved yet (a note on a resolved one is allowed: the record of the case).
 */
export function alarmStepAllowed(state: AlarmState, step: AlarmStep): boolean {
  switch (step) {
    case 'ack':
      return state === 'open';
    case 'resolve':
    case 'assign':
      return state !== 'resolved';
    case 'note':
      return true;
  }
}

// ---- settings -------------------------------------------------------------------------------------------------

const num = (min: number, max: number, fallback: number) =>
  z.preprocess(numericText, z.number().min(min).max(max)).catch(fallback).default(fallback);

/**
 * Thresholds of the detection rules, from the server attributes `{ns}.alarms.<name>` (defaults when absent or out of
 * range: a bad setting never stops detection).
 */
export const alarmSettingsSchema = z.object({
  /** Detection on at all. */
  enabled: z.preprocess(booleanText, z.boolean()).catch(true).default(true),
  /** Metres from the parked point, ignition off, that make a towing. */
  towingDistance: num(50, 100_000, 300),
  /** Consecutive fixes beyond towingDistance needed (a drifting fix jumps away and back). */
  towingFixes: num(2, 50, 3),
  /** Minutes without a report after a report while moving. */
  signalLostMinutes: num(1, 24 * 60, 5),
  /** km/h above which a report counts as moving (signal lost, parked window). */
  movingSpeed: num(0, 200, 5),
  /** km/h limit of the overspeed alarm; 0 = the device's speedLimit only (none: no overspeed alarm). */
  overspeedLimit: num(0, 500, 0),
  /** Calendar of the "parked" window (nights, weekends); 0 = none. A device's own {ns}.alarms.parkedCalendarId wins. */
  parkedCalendarId: num(0, Number.MAX_SAFE_INTEGER, 0),
  /** Types not raised (comma list). */
  disabledTypes: z
    .preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : v,
      z.array(z.enum(MONITORING_ALARM_TYPES)),
    )
    .catch([])
    .default([]),
});
export type AlarmSettings = z.output<typeof alarmSettingsSchema>;

export const ALARM_SETTING_NAMES = Object.keys(alarmSettingsSchema.shape) as Array<keyof AlarmSettings>;

/** The settings from server (or device) attributes, under `{ns}.alarms.`. */
export function alarmSettingsFrom(
  attributes: Record<string, unknown> | null | undefined,
  ns: string,
): AlarmSettings {
  const raw: Record<string, unknown> = {};
  for (const name of ALARM_SETTING_NAMES) {
    const v = attributes?.[nsKey(ns, `alarms.${name}`)];
    if (v !== undefined && v !== null && v !== '') raw[name] = v;
  }
  return alarmSettingsSchema.parse(raw);
}

// ---- who ------------------------------------------------------------------------------------------------------

export { isMonitoringOperator } from './monitoringAccess.ts';

/** Why the caller may not take a step on alarms (ack, assign, note, resolve), or null when it may. */
export function alarmActDenial(ctx: PermissionContext): 'alarms.notOperator' | 'alarms.readonly' | null {
  if (!isMonitoringOperator(ctx)) return 'alarms.notOperator';
  if (isReadonly(ctx.user, ctx.server)) return 'alarms.readonly';
  const user = ctx.user!;
  if (user.administrator) return null;
  const perms = user.attributes?.[nsKey(ctx.ns ?? 'rastro', 'advancedPerms')];
  return permissionBit(perms, MONITORING_ACT_BIT) ? null : 'alarms.notOperator';
}

/** Whether detection runs for a device: the server switch, and the device's own {ns}.alarms.enabled not false. */
export function deviceAlarmsOn(
  settings: AlarmSettings,
  deviceAttributes: Record<string, unknown> | null | undefined,
  ns: string,
): boolean {
  const own = deviceAttributes?.[nsKey(ns, 'alarms.enabled')];
  return settings.enabled && own !== false && own !== 'false';
}

// ---- API ------------------------------------------------------------------------------------------------------

const idValue = z.preprocess(numericText, z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

/** GET /{ns}/alarms: open ones by default; `all=true` handled ones too; filters. */
export const alarmListQuery = z.object({
  all: z.preprocess(booleanText, z.boolean({ message: 'alarms.badFilter' })).optional(),
  state: z.enum(ALARM_STATES, { message: 'alarms.badFilter' }).optional(),
  type: z.enum(MONITORING_ALARM_TYPES, { message: 'alarms.badFilter' }).optional(),
  deviceId: idValue.optional(),
  from: zonedDate.optional(),
  to: zonedDate.optional(),
  limit: z.preprocess(numericText, z.number().int().min(1).max(1000)).optional(),
});
export type AlarmListQuery = z.output<typeof alarmListQuery>;

const noteText = z.string().trim().min(1, 'alarms.noteRequired').max(2000, 'alarms.noteTooLong');

export const alarmAckBody = z.object({ note: noteText.optional() }).strict();
export const alarmAssignBody = z.object({ userId: idValue }).strict();
export const alarmNoteBody = z.object({ text: noteText }).strict();
export const alarmResolveBody = z
  .object({
    outcome: z.enum(ALARM_OUTCOMES, { message: 'alarms.outcomeRequired' }),
    note: noteText.optional(),
  })
  .strict();

/** GET /{ns}/reports/alarms. */
export const alarmReportQuery = z.object({ from: zonedDate, to: zonedDate });

export interface AlarmNote {
  id: number;
  alarmId: number;
  userId: number;
  userName: string;
  time: string;
  text: string;
}

/** An alarm as the API answers it. */
export interface Alarm {
  id: number;
  deviceId: number;
  deviceName: string;
  type: MonitoringAlarmType;
  /** The device's own alarm value (deviceAlarm), the anchor's tow/geofence, or ''. */
  detail: string;
  severity: AlarmSeverity;
  positionId: number;
  latitude: number | null;
  longitude: number | null;
  time: string;
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
  notes: AlarmNote[];
}

/** Someone the desk can call about an alarm: a person who sees the vehicle and has a phone. */
export interface AlarmContact {
  name: string;
  phone: string;
}

/**
 * Whom the desk calls about a vehicle (issue #32): of the users who see it, those with a phone; the customers
 * (non-administrators) when there are any, else the administrators. Answered by GET /{ns}/alarms/{id}/contacts to
 * every operator, so an operator who does not manage users still gets the call link.
 */
export function alarmContacts(
  users: ReadonlyArray<{ name: string; phone?: string | null; administrator?: boolean | number | null }>,
): AlarmContact[] {
  const withPhone = users
    .map((u) => ({ name: u.name, phone: (u.phone ?? '').trim(), admin: !!u.administrator }))
    .filter((u) => u.phone !== '');
  const customers = withPhone.filter((u) => !u.admin);
  return (customers.length ? customers : withPhone).map(({ name, phone }) => ({ name, phone }));
}
