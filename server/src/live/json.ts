// Row ↔ API object mapping for the live tables (CONTRACT §1 dates: millis and "+00:00").
import type { Attributes, Device, Event, Position, QueuedCommand } from '@rastro/domain';
import type { Device as DeviceConf } from './cache.ts';
import { parseJson } from './cache.ts';

export const iso = (d: Date | number): string => new Date(d).toISOString().replace('Z', '+00:00');
/** A stored date (any ISO form) in the API form, or null. */
export const isoOrNull = (s: string | null | undefined): string | null => {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? iso(t) : null;
};

export interface PositionDbRow {
  id: number;
  deviceId: number;
  protocol: string | null;
  serverTime: string;
  deviceTime: string;
  fixTime: string;
  valid: number;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  address: string | null;
  accuracy: number;
  network: string | null;
  geofenceIds: string | null;
  attributes: string;
}

export function positionFromRow(r: PositionDbRow): Position {
  let geofenceIds: number[] | null = null;
  if (r.geofenceIds) {
    try {
      const v: unknown = JSON.parse(r.geofenceIds);
      if (Array.isArray(v)) geofenceIds = v.map(Number);
    } catch {
      geofenceIds = null;
    }
  }
  let network: Record<string, unknown> | null = null;
  if (r.network) network = parseJson(r.network);
  return {
    id: r.id,
    attributes: parseJson(r.attributes) as Attributes,
    deviceId: r.deviceId,
    protocol: r.protocol,
    serverTime: isoOrNull(r.serverTime) ?? iso(0),
    deviceTime: isoOrNull(r.deviceTime) ?? iso(0),
    fixTime: isoOrNull(r.fixTime) ?? iso(0),
    valid: !!r.valid,
    latitude: r.latitude,
    longitude: r.longitude,
    altitude: r.altitude,
    speed: r.speed,
    course: r.course,
    address: r.address,
    accuracy: r.accuracy,
    network,
    geofenceIds,
    // Traccar does not store `outdated`: a position read back is never outdated.
    outdated: false,
  };
}

export interface EventDbRow {
  id: number;
  type: string;
  eventTime: string;
  deviceId: number;
  positionId: number;
  geofenceId: number;
  maintenanceId: number;
  attributes: string;
}

export function eventFromRow(r: EventDbRow): Event {
  return {
    id: r.id,
    attributes: parseJson(r.attributes) as Attributes,
    deviceId: r.deviceId,
    type: r.type,
    eventTime: isoOrNull(r.eventTime) ?? iso(0),
    positionId: r.positionId,
    geofenceId: r.geofenceId,
    maintenanceId: r.maintenanceId,
  };
}

export interface LiveDeviceState {
  status: 'online' | 'offline' | 'unknown' | null;
  lastUpdate: Date | null;
  positionId: number;
}

export function deviceJson(d: DeviceConf, attrs: Record<string, unknown>, live?: LiveDeviceState): Device {
  return {
    id: d.id,
    attributes: attrs as Attributes,
    groupId: d.groupId,
    calendarId: d.calendarId,
    name: d.name,
    uniqueId: d.uniqueId,
    status: ((live ? live.status : d.status) ?? 'offline') as Device['status'],
    lastUpdate: live?.lastUpdate ? iso(live.lastUpdate) : isoOrNull(d.lastUpdate),
    positionId: live ? live.positionId : d.positionId,
    phone: d.phone,
    model: d.model,
    contact: d.contact,
    category: d.category,
    disabled: !!d.disabled,
    expirationTime: isoOrNull(d.expirationTime),
  };
}

export interface QueuedDbRow {
  id: number;
  deviceId: number;
  type: string;
  textChannel: number;
  attributes: string;
  createdAt: string;
}

export function queuedFromRow(r: QueuedDbRow): QueuedCommand {
  return {
    id: r.id,
    attributes: parseJson(r.attributes) as Attributes,
    deviceId: r.deviceId,
    type: r.type,
    textChannel: !!r.textChannel,
  };
}

const texts = new WeakMap<object, string>();

/** JSON text of an immutable API object (positions), serialised once and shared by the socket and REST. */
export function jsonText(o: object): string {
  let t = texts.get(o);
  if (t === undefined) {
    t = JSON.stringify(o);
    texts.set(o, t);
  }
  return t;
}
