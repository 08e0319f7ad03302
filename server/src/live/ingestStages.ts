// Stages of the live pipeline (ingest.ts, CONTRACT §7) that work on one incoming position and the device's
// previous one: distance, geofences, motion, driver, engine hours and the overspeed event. They change the
// position's attributes in place or return what they found; storing and publishing stay in the core.
import { haversine, isInsideArea, type Event, type Position } from '@rastro/domain';
import type { LiveCache } from './cache.ts';
import type { LiveEventHandlers } from './events/index.ts';
import { splitList } from './ingestSql.ts';
import { createMotionTracker, tripParamsFrom, type MotionTracker } from './motion.ts';
import type { IncomingPosition } from './types.ts';

type Attrs = Record<string, unknown>;
const DEFAULT_MOTION_THRESHOLD = 0.01;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** distance (sent, else the great-circle step from the previous position) and totalDistance, metres. */
export function addDistance(prev: Position | null, p: IncomingPosition, attrs: Attrs): void {
  const sentDistance = Number(attrs.distance);
  const distance =
    attrs.distance !== undefined && Number.isFinite(sentDistance)
      ? sentDistance
      : prev
        ? haversine(prev.latitude, prev.longitude, p.latitude, p.longitude)
        : 0;
  attrs.distance = round2(distance);
  const prevTotal = Number(prev?.attributes.totalDistance ?? 0) || 0;
  attrs.totalDistance = round2(prevTotal + distance);
}

/** Ids of the geofences (device and group chain, calendar active, within floor/ceiling) containing the position. */
export function geofencesInside(
  cache: LiveCache,
  deviceId: number,
  p: IncomingPosition,
  fixMs: number,
): number[] {
  const altitude = p.altitude ?? 0;
  const inside: number[] = [];
  for (const g of cache.deviceGeofences(deviceId)) {
    if (g.calendarId && !cache.calendarActive(g.calendarId, fixMs)) continue;
    const floor = Number(g.attrs.floor);
    const ceiling = Number(g.attrs.ceiling);
    if (g.attrs.floor !== undefined && Number.isFinite(floor) && altitude < floor) continue;
    if (g.attrs.ceiling !== undefined && Number.isFinite(ceiling) && ceiling > 0 && altitude > ceiling)
      continue;
    const pd = Number(g.attrs.polylineDistance);
    if (isInsideArea(g.shape!, p, Number.isFinite(pd) && pd > 0 ? pd : undefined)) inside.push(g.id);
  }
  return inside.sort((a, b) => a - b);
}

/** motion, when the tracker sends none: speed above `event.motion.speedThreshold` (knots). */
export function addMotion(cache: LiveCache, deviceId: number, p: IncomingPosition, attrs: Attrs): void {
  if (attrs.motion !== undefined) return;
  const threshold = cache.deviceNumber(deviceId, 'event.motion.speedThreshold') ?? DEFAULT_MOTION_THRESHOLD;
  attrs.motion = (p.speed ?? 0) > threshold;
}

/** The device's driver (device form "driver", or a QR driver checked in) when the tracker sends none. */
export function addDriver(cache: LiveCache, deviceId: number, attrs: Attrs): void {
  if (attrs.driverUniqueId !== undefined) return;
  const driver = cache.deviceAttrs.get(deviceId)?.driverUniqueId;
  if (typeof driver === 'string' && driver.trim() !== '') attrs.driverUniqueId = driver.trim();
}

/** Engine hours (ms), counted only while both positions have ignition on. */
export function addEngineHours(prev: Position | null, attrs: Attrs, deviceMs: number): void {
  if (attrs.hours !== undefined || !prev) return;
  let hours = Number(prev.attributes.hours ?? 0) || 0;
  const delta = deviceMs - Date.parse(prev.deviceTime);
  if (prev.attributes.ignition === true && attrs.ignition === true && delta > 0) hours += delta;
  if (hours !== 0) attrs.hours = hours;
}

/**
 * The speed limit (knots) a position is held to, and the geofence that sets it: the position attribute, else the
 * device's; the lowest limit of the geofences it is in wins. 0 = no limit.
 */
export function speedLimitOf(
  cache: LiveCache,
  deviceId: number,
  position: Position,
  inside: number[],
): { limit: number; geofenceId: number } {
  let limit = cache.deviceNumber(deviceId, 'speedLimit') ?? 0;
  const posLimit = Number(position.attributes.speedLimit);
  if (Number.isFinite(posLimit) && posLimit > 0) limit = posLimit;
  let geofenceId = 0;
  for (const g of inside) {
    const gl = Number(cache.geofences.get(g)?.attrs.speedLimit);
    if (Number.isFinite(gl) && gl > 0 && (geofenceId === 0 || gl < limit)) {
      limit = gl;
      geofenceId = g;
    }
  }
  return { limit: limit > 0 ? limit : 0, geofenceId };
}

/**
 * deviceOverspeed once per excursion above the limit (speedLimitOf). `was` = already over; returns whether it is
 * over now.
 */
export function overspeedEvent(
  was: boolean,
  cache: LiveCache,
  deviceId: number,
  position: Position,
  inside: number[],
  add: (type: string, extra?: Partial<Event>) => void,
): boolean {
  const { limit, geofenceId } = speedLimitOf(cache, deviceId, position, inside);
  if (!(limit > 0) || !(position.speed > limit)) return false;
  if (!was) add('deviceOverspeed', { geofenceId, attributes: { speed: position.speed, speedLimit: limit } });
  return true;
}

export interface EventStageInput {
  cache: LiveCache;
  deviceId: number;
  prev: Position | null;
  /** The stored position (its attributes are final). */
  position: Position;
  inside: number[];
  /** Whether it is newer than the previous one (older positions raise alarms only). */
  isLatest: boolean;
  /** The device's running state the events need. */
  state: { overspeed: boolean; tracker: MotionTracker<Position> | null };
  liveEvents: Pick<LiveEventHandlers, 'fuel' | 'late'>;
  add: (type: string, extra?: Partial<Event>, eventPosition?: Position) => void;
}

/**
 * The events of one stored position (CONTRACT §7 order): alarms (each value not in the previous position), then for
 * the latest position ignition on/off, geofence exit/enter, overspeed, fuel, motion (trip start/stop) and the
 * maintenance and driver handlers.
 */
export function positionEvents(input: EventStageInput): void {
  const { cache, deviceId, prev, position, inside, isLatest, state, liveEvents, add } = input;
  // alarms: one event per alarm value not present in the previous position
  if (typeof position.attributes.alarm === 'string' && position.attributes.alarm.trim() !== '') {
    const before = new Set(
      isLatest && typeof prev?.attributes.alarm === 'string' ? splitList(prev.attributes.alarm) : [],
    );
    for (const a of splitList(position.attributes.alarm))
      if (!before.has(a)) add('alarm', { attributes: { alarm: a } });
  }
  if (isLatest) {
    if (
      prev &&
      typeof prev.attributes.ignition === 'boolean' &&
      typeof position.attributes.ignition === 'boolean'
    ) {
      if (!prev.attributes.ignition && position.attributes.ignition) add('ignitionOn');
      else if (prev.attributes.ignition && !position.attributes.ignition) add('ignitionOff');
    }
    if (prev) {
      const before = new Set(prev.geofenceIds ?? []);
      const after = new Set(inside);
      for (const g of before) if (!after.has(g)) add('geofenceExit', { geofenceId: g });
      for (const g of inside) if (!before.has(g)) add('geofenceEnter', { geofenceId: g });
    }
    state.overspeed = overspeedEvent(state.overspeed, cache, deviceId, position, inside, add);
    liveEvents.fuel({ cache, deviceId, prev, position, add });
    if (!state.tracker) {
      const d = cache.device(deviceId);
      const groupAttrs = d ? cache.groupChain(d.groupId).map((g) => cache.groupAttrs.get(g)) : [];
      state.tracker = createMotionTracker<Position>({
        ...tripParamsFrom(cache.deviceAttrs.get(deviceId), ...groupAttrs, cache.serverAttrs),
        initialMoving: prev?.attributes.motion === true,
      });
      if (prev) state.tracker.update(prev);
    }
    for (const m of state.tracker.update(position)) add(m.type, {}, m.position);
    liveEvents.late({ cache, deviceId, prev, position, add });
  }
}
