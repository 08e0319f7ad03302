// The monitoring center's detection rules (issue #32, docs/monitoring.md): pure functions over the device's
// previous state, a new position and the settings (alarms.ts), each answering an alarm or nothing. The server runs
// detectAlarms at ingestion for every newest position and signalLostAlarm from a periodic job; anchor exits come
// from the anchor's own alarm event (anchorExitAlarm).
import { haversine } from './geo.ts';
import { KNOT_TO_KMH } from './units.ts';
import type { AlarmSettings, MonitoringAlarmType } from './alarms.ts';

/** What the rules read of a position. */
export interface AlarmPoint {
  /** Fix time, ms. */
  time: number;
  latitude: number;
  longitude: number;
  /** Knots (Traccar's unit). */
  speed: number;
  /** Absent when the tracker does not report it (then no towing or driver rule). */
  ignition?: boolean;
  /** Traccar's alarm attribute: one value or a comma list. */
  alarm?: string;
  valid?: boolean;
  /** Metres, 0 or absent = unknown. */
  accuracy?: number;
}

/** Per-device memory of the rules between positions. */
export interface AlarmTrackState {
  last: AlarmPoint | null;
  /** Where the vehicle stood when the ignition went off (towing's reference). */
  parked: { latitude: number; longitude: number; time: number } | null;
  /** Consecutive fixes beyond towingDistance from `parked`. */
  beyond: number;
  towed: boolean;
  overspeed: boolean;
  parkedMoving: boolean;
}

export const emptyAlarmState = (): AlarmTrackState => ({
  last: null,
  parked: null,
  beyond: 0,
  towed: false,
  overspeed: false,
  parkedMoving: false,
});

/** Facts the server looks up for a position (the rules stay pure). */
export interface AlarmContext {
  /** The device's speed limit in knots (speedLimit attribute, geofences); 0 = none. */
  speedLimit: number;
  /** The fix time falls in the device's "parked" calendar. */
  inParkedWindow: boolean;
  /** QR check-in is on for the server and the device. */
  qrDriverRequired: boolean;
  /** A driver is checked in to the device. */
  driverCheckedIn: boolean;
}

export const NO_ALARM_CONTEXT: AlarmContext = {
  speedLimit: 0,
  inParkedWindow: false,
  qrDriverRequired: false,
  driverCheckedIn: false,
};

export interface DetectedAlarm {
  type: MonitoringAlarmType;
  /** The tracker's own alarm value (deviceAlarm, towing by the device), or ''. */
  detail: string;
}

const kmh = (knots: number) => knots * KNOT_TO_KMH;
const values = (alarm: string | undefined) =>
  (alarm ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Traccar alarm values with a type of their own; every other value is a deviceAlarm. */
const OWN_TYPES: Record<string, MonitoringAlarmType> = {
  sos: 'sos',
  powerCut: 'powerCut',
  tampering: 'tampering',
  tow: 'towing',
};

/**
 * Traccar alarm values that are no case for the desk: driving behaviour (the scores' data) and state reports. The
 * tracker's own overspeed is left to the overspeed rule.
 */
export const ALARM_VALUES_NOT_QUEUED: ReadonlySet<string> = new Set([
  'hardBraking',
  'hardAcceleration',
  'hardCornering',
  'laneChange',
  'overspeed',
  'lowspeed',
  'idle',
  'highRpm',
  'powerOn',
  'powerRestored',
  'lock',
  'unlock',
  'parking',
  'geofenceEnter',
  'geofenceExit',
]);

/** SOS, power cut, tampering and the device's other alarms: each value not in the previous position. */
export function attributeAlarms(prev: AlarmPoint | null, point: AlarmPoint): DetectedAlarm[] {
  if (!point.alarm) return [];
  const before = new Set(values(prev?.alarm));
  return values(point.alarm)
    .filter((v) => !before.has(v) && !ALARM_VALUES_NOT_QUEUED.has(v))
    .map((v) => ({ type: OWN_TYPES[v] ?? 'deviceAlarm', detail: v }));
}

/**
 * Towing: with the ignition off, the vehicle ends up more than towingDistance from where it was parked. GPS drift
 * makes single fixes jump (with a made-up speed, too): a fix counts only when valid and more precise than the
 * distance, and the alarm needs towingFixes consecutive fixes beyond it; a fix back within the distance starts the
 * count again. Once per parking.
 */
export function towingRule(
  state: AlarmTrackState,
  point: AlarmPoint,
  s: AlarmSettings,
): { state: AlarmTrackState; alarm: DetectedAlarm | null } {
  if (point.ignition !== false)
    return { state: { ...state, parked: null, beyond: 0, towed: false }, alarm: null };
  if (point.valid === false || (point.accuracy ?? 0) > s.towingDistance) return { state, alarm: null };
  if (!state.parked) {
    const parked = { latitude: point.latitude, longitude: point.longitude, time: point.time };
    return { state: { ...state, parked, beyond: 0, towed: false }, alarm: null };
  }
  const d = haversine(state.parked.latitude, state.parked.longitude, point.latitude, point.longitude);
  if (d <= s.towingDistance) return { state: { ...state, beyond: 0 }, alarm: null };
  const beyond = state.beyond + 1;
  const fire = !state.towed && beyond >= s.towingFixes;
  return {
    state: { ...state, beyond, towed: state.towed || fire },
    alarm: fire ? { type: 'towing', detail: '' } : null,
  };
}

/** Overspeed: once per excursion above the limit (settings' overspeedLimit km/h, else the device's limit). */
export function overspeedRule(
  state: AlarmTrackState,
  point: AlarmPoint,
  s: AlarmSettings,
  c: AlarmContext,
): { state: AlarmTrackState; alarm: DetectedAlarm | null } {
  const limit = s.overspeedLimit > 0 ? s.overspeedLimit / KNOT_TO_KMH : c.speedLimit;
  const over = limit > 0 && point.speed > limit;
  return {
    state: { ...state, overspeed: over },
    alarm: over && !state.overspeed ? { type: 'overspeed', detail: '' } : null,
  };
}

/** Moving (above movingSpeed) or ignition on inside the "parked" calendar: once per stay in the window. */
export function parkedMovementRule(
  state: AlarmTrackState,
  point: AlarmPoint,
  s: AlarmSettings,
  c: AlarmContext,
): { state: AlarmTrackState; alarm: DetectedAlarm | null } {
  if (!c.inParkedWindow) return { state: { ...state, parkedMoving: false }, alarm: null };
  const moving = kmh(point.speed) > s.movingSpeed || point.ignition === true;
  const fire = moving && !state.parkedMoving;
  return {
    state: { ...state, parkedMoving: state.parkedMoving || moving },
    alarm: fire ? { type: 'parkedMovement', detail: '' } : null,
  };
}

/** Ignition turned on while QR check-in is used for the vehicle and no driver is checked in. */
export function noDriverRule(
  prev: AlarmPoint | null,
  point: AlarmPoint,
  c: AlarmContext,
): DetectedAlarm | null {
  const turnedOn = point.ignition === true && prev?.ignition !== true;
  return turnedOn && c.qrDriverRequired && !c.driverCheckedIn ? { type: 'noDriver', detail: '' } : null;
}

/**
 * Signal lost while moving: the last report (received at `receivedAt`) was moving and nothing came for
 * signalLostMinutes. Run by a periodic job, not at ingestion.
 */
export function signalLostAlarm(
  last: Pick<AlarmPoint, 'speed'> & { receivedAt: number },
  now: number,
  s: AlarmSettings,
): DetectedAlarm | null {
  const moving = kmh(last.speed) > s.movingSpeed;
  return moving && now - last.receivedAt >= s.signalLostMinutes * 60_000
    ? { type: 'signalLost', detail: '' }
    : null;
}

/** The anchor's alarm event (live/anchor.ts: attributes.anchor, alarm 'tow' or 'geofence') as an alarm. */
export function anchorExitAlarm(
  eventAttributes: Record<string, unknown> | null | undefined,
): DetectedAlarm | null {
  if (!eventAttributes || eventAttributes.anchor !== true) return null;
  return {
    type: 'anchorExit',
    detail: typeof eventAttributes.alarm === 'string' ? eventAttributes.alarm : '',
  };
}

/**
 * Every rule on one new position, in order; `disabledTypes` dropped. An older position than the last one (sent
 * late) raises the tracker's own alarms only and leaves the state as it was.
 */
export function detectAlarms(
  state: AlarmTrackState,
  point: AlarmPoint,
  s: AlarmSettings,
  c: AlarmContext = NO_ALARM_CONTEXT,
): { state: AlarmTrackState; alarms: DetectedAlarm[] } {
  const prev = state.last;
  const latest = !prev || point.time >= prev.time;
  const alarms: DetectedAlarm[] = attributeAlarms(latest ? prev : null, point);
  let next = state;
  if (latest) {
    const tow = towingRule(next, point, s);
    const speed = overspeedRule(tow.state, point, s, c);
    const parked = parkedMovementRule(speed.state, point, s, c);
    const driver = noDriverRule(prev, point, c);
    for (const a of [tow.alarm, speed.alarm, parked.alarm, driver]) if (a) alarms.push(a);
    next = { ...parked.state, last: point };
  }
  if (!s.disabledTypes.length) return { state: next, alarms };
  return { state: next, alarms: alarms.filter((a) => !s.disabledTypes.includes(a.type)) };
}
