// Report items (CONTRACT §3 "Report items" and §8) computed from positions, with no I/O: durations and engine
// hours in ms, speeds in knots, distances in metres.
import { mpsToKnots, zoneOffset, type ReportStop, type ReportSummary, type ReportTrip } from '@rastro/domain';
import { createMotionTracker, type TripParams } from '../motion.ts';

export interface ReportPosition {
  id: number;
  deviceId: number;
  /** ISO date-time. */
  fixTime: string;
  latitude: number;
  longitude: number;
  /** knots */
  speed: number;
  address: string | null;
  attributes: Record<string, unknown>;
}

export interface ReportDevice {
  id: number;
  name: string;
  attributes: Record<string, unknown>;
}

export interface Segment {
  kind: 'trip' | 'stop';
  start: ReportPosition;
  end: ReportPosition;
  /** knots; 0 in fast mode */
  maxSpeed: number;
}

export interface ReportOptions {
  /** report.ignoreOdometer: distances from totalDistance even when odometer exists. */
  ignoreOdometer?: boolean;
  /** driver uniqueId ⇒ name */
  drivers?: Map<string, string>;
}

/** Jackson's date format (CONTRACT §1): millis and a +00:00 offset. */
export const jsonDate = (value: string | number | Date): string =>
  new Date(value).toISOString().replace('Z', '+00:00');

const timeOf = (p: ReportPosition): number => Date.parse(p.fixTime);

const numAttr = (p: ReportPosition, key: string): number | undefined => {
  const v = p.attributes[key];
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** The odometer shown for a position: `odometer` when present and not ignored, else `totalDistance`. */
function odometerOf(p: ReportPosition, opts: ReportOptions): number {
  const odometer = numAttr(p, 'odometer');
  if (!opts.ignoreOdometer && odometer !== undefined && odometer !== 0) return odometer;
  return numAttr(p, 'totalDistance') ?? 0;
}

export function reportDistance(start: ReportPosition, end: ReportPosition, opts: ReportOptions = {}): number {
  const a = numAttr(start, 'odometer');
  const b = numAttr(end, 'odometer');
  if (!opts.ignoreOdometer && a && b) return b - a;
  return (numAttr(end, 'totalDistance') ?? 0) - (numAttr(start, 'totalDistance') ?? 0);
}

/** Δ fuelUsed, else start − end fuel (litres), else Δ fuelLevel % × device fuelCapacity. */
export function spentFuel(start: ReportPosition, end: ReportPosition, device: ReportDevice): number {
  const usedA = numAttr(start, 'fuelUsed');
  const usedB = numAttr(end, 'fuelUsed');
  if (usedA !== undefined && usedB !== undefined) return usedB - usedA;
  const fuelA = numAttr(start, 'fuel');
  const fuelB = numAttr(end, 'fuel');
  if (fuelA !== undefined && fuelB !== undefined) return fuelA - fuelB;
  const levelA = numAttr(start, 'fuelLevel');
  const levelB = numAttr(end, 'fuelLevel');
  const raw = device.attributes.fuelCapacity;
  const capacity = typeof raw === 'string' ? Number(raw) : raw;
  if (
    levelA !== undefined &&
    levelB !== undefined &&
    typeof capacity === 'number' &&
    Number.isFinite(capacity)
  ) {
    return ((levelA - levelB) / 100) * capacity;
  }
  return 0;
}

const speedKnots = (metres: number, ms: number): number => (ms > 0 ? mpsToKnots(metres / (ms / 1000)) : 0);

/**
 * Slow mode: replays the period's positions (fixTime order) through the motion state machine. The period starts
 * inside a trip when its first position has motion=true; an item still open at the end closes at the last position.
 */
export function segmentsFromPositions(positions: ReportPosition[], params: TripParams): Segment[] {
  if (positions.length === 0) return [];
  const initialMoving = positions[0].attributes.motion === true;
  const tracker = createMotionTracker<{ latitude: number; longitude: number; fixTime: string; i: number }>({
    ...params,
    initialMoving,
  });
  const segments: Segment[] = [];
  let kind: Segment['kind'] = initialMoving ? 'trip' : 'stop';
  let startIndex = 0;
  const close = (endIndex: number) => {
    if (timeOf(positions[endIndex]) <= timeOf(positions[startIndex])) return;
    let maxSpeed = 0;
    if (kind === 'trip')
      for (let k = startIndex; k <= endIndex; k++) maxSpeed = Math.max(maxSpeed, positions[k].speed);
    segments.push({ kind, start: positions[startIndex], end: positions[endIndex], maxSpeed });
  };
  positions.forEach((p, i) => {
    for (const event of tracker.update({
      latitude: p.latitude,
      longitude: p.longitude,
      fixTime: p.fixTime,
      i,
    })) {
      const next = event.type === 'deviceMoving' ? 'trip' : 'stop';
      if (next === kind) continue;
      close(event.position.i);
      kind = next;
      startIndex = event.position.i;
    }
  });
  close(positions.length - 1);
  return segments;
}

/**
 * Fast mode: trips and stops from the stored motion events of the period (each with its position). maxSpeed is 0.
 */
export function segmentsFromEvents(
  first: ReportPosition,
  last: ReportPosition,
  events: Array<{ type: string; position: ReportPosition }>,
): Segment[] {
  const segments: Segment[] = [];
  let kind: Segment['kind'] = first.attributes.motion === true ? 'trip' : 'stop';
  let start = first;
  const close = (end: ReportPosition) => {
    if (timeOf(end) > timeOf(start)) segments.push({ kind, start, end, maxSpeed: 0 });
  };
  for (const event of events) {
    const next = event.type === 'deviceMoving' ? 'trip' : event.type === 'deviceStopped' ? 'stop' : null;
    if (!next || next === kind) continue;
    if (timeOf(event.position) < timeOf(start)) continue;
    close(event.position);
    kind = next;
    start = event.position;
  }
  close(last);
  return segments;
}

export type TripItem = ReportTrip;

export type StopItem = ReportStop;

export type SummaryItem = ReportSummary;

const driverOf = (p: ReportPosition): string | null => {
  const v = p.attributes.driverUniqueId;
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
};

export function tripItem(device: ReportDevice, seg: Segment, opts: ReportOptions = {}): TripItem {
  const { start, end } = seg;
  const duration = timeOf(end) - timeOf(start);
  const distance = reportDistance(start, end, opts);
  const driverUniqueId = driverOf(start) ?? driverOf(end);
  return {
    deviceId: device.id,
    deviceName: device.name,
    distance,
    averageSpeed: speedKnots(distance, duration),
    maxSpeed: seg.maxSpeed,
    spentFuel: spentFuel(start, end, device),
    startOdometer: odometerOf(start, opts),
    endOdometer: odometerOf(end, opts),
    startTime: jsonDate(start.fixTime),
    endTime: jsonDate(end.fixTime),
    startPositionId: start.id,
    endPositionId: end.id,
    startLat: start.latitude,
    startLon: start.longitude,
    endLat: end.latitude,
    endLon: end.longitude,
    startAddress: start.address,
    endAddress: end.address,
    duration,
    driverUniqueId,
    driverName: driverUniqueId ? (opts.drivers?.get(driverUniqueId) ?? null) : null,
  };
}

export function stopItem(device: ReportDevice, seg: Segment, opts: ReportOptions = {}): StopItem {
  const { start, end } = seg;
  const hoursA = numAttr(start, 'hours');
  const hoursB = numAttr(end, 'hours');
  return {
    deviceId: device.id,
    deviceName: device.name,
    distance: 0,
    averageSpeed: 0,
    maxSpeed: 0,
    spentFuel: spentFuel(start, end, device),
    startOdometer: odometerOf(start, opts),
    endOdometer: odometerOf(end, opts),
    startTime: jsonDate(start.fixTime),
    endTime: jsonDate(end.fixTime),
    positionId: start.id,
    latitude: start.latitude,
    longitude: start.longitude,
    address: start.address,
    duration: timeOf(end) - timeOf(start),
    engineHours: hoursA !== undefined && hoursB !== undefined ? hoursB - hoursA : 0,
  };
}

/** One summary row from the first and last positions of a period (maxSpeed given, 0 in fast mode). */
export function summaryItem(
  device: ReportDevice,
  first: ReportPosition,
  last: ReportPosition,
  maxSpeed: number,
  opts: ReportOptions = {},
): SummaryItem {
  const distance = reportDistance(first, last, opts);
  const startHours = numAttr(first, 'hours') ?? 0;
  const endHours = numAttr(last, 'hours') ?? 0;
  const engineHours = endHours - startHours;
  return {
    deviceId: device.id,
    deviceName: device.name,
    distance,
    averageSpeed: engineHours > 0 ? speedKnots(distance, engineHours) : 0,
    maxSpeed,
    spentFuel: spentFuel(first, last, device),
    startOdometer: odometerOf(first, opts),
    endOdometer: odometerOf(last, opts),
    startTime: jsonDate(first.fixTime),
    endTime: jsonDate(last.fixTime),
    startHours,
    endHours,
    engineHours,
  };
}

/** Whether Intl knows the zone id. */
export function validTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The first local midnight strictly after `ms` in `timeZone`. */
export function nextMidnight(ms: number, timeZone: string): number {
  const local = new Date(ms + zoneOffset(timeZone, ms));
  const wallMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1);
  let guess = wallMidnight - zoneOffset(timeZone, wallMidnight);
  guess = wallMidnight - zoneOffset(timeZone, guess);
  return guess > ms ? guess : guess + 86_400_000;
}

/** [from, to] cut at local midnights: the day pieces of a daily summary (the last one is the remainder). */
export function splitDays(from: number, to: number, timeZone: string): Array<[number, number]> {
  const days: Array<[number, number]> = [];
  let start = from;
  while (start < to) {
    const end = Math.min(nextMidnight(start, timeZone), to);
    days.push([start, end]);
    start = end;
  }
  return days;
}

export interface GeofenceItem {
  deviceId: number;
  deviceName: string;
  geofenceId: number;
  distance: number;
  averageSpeed: number;
  maxSpeed: number;
  spentFuel: number;
  startOdometer: number;
  endOdometer: number;
  startTime: string;
  endTime: string;
}

/**
 * Enter → exit intervals of the listed geofences from a device's geofence events (eventTime order). An exit with
 * no enter in the period starts at `from`; an enter still open at the end closes at `to`. Sorted by start.
 */
export function geofenceIntervals(
  device: ReportDevice,
  events: Array<{ type: string; eventTime: string; geofenceId: number }>,
  geofenceIds: Set<number>,
  from: number,
  to: number,
): GeofenceItem[] {
  const open = new Map<number, number>();
  const out: Array<{ geofenceId: number; start: number; end: number }> = [];
  for (const e of events) {
    if (!geofenceIds.has(e.geofenceId)) continue;
    const t = Date.parse(e.eventTime);
    if (e.type === 'geofenceEnter') {
      if (!open.has(e.geofenceId)) open.set(e.geofenceId, t);
    } else if (e.type === 'geofenceExit') {
      out.push({ geofenceId: e.geofenceId, start: open.get(e.geofenceId) ?? from, end: t });
      open.delete(e.geofenceId);
    }
  }
  for (const [geofenceId, start] of open) out.push({ geofenceId, start, end: to });
  out.sort((a, b) => a.start - b.start || a.geofenceId - b.geofenceId);
  return out.map((i) => ({
    deviceId: device.id,
    deviceName: device.name,
    geofenceId: i.geofenceId,
    distance: 0,
    averageSpeed: 0,
    maxSpeed: 0,
    spentFuel: 0,
    startOdometer: 0,
    endOdometer: 0,
    startTime: jsonDate(i.start),
    endTime: jsonDate(i.end),
  }));
}
