import type { Attributes, Device, Position } from '../src/types.ts';

export function device(id: number, over: Partial<Device> = {}, attributes: Attributes = {}): Device {
  return {
    id,
    attributes,
    groupId: 0,
    calendarId: 0,
    name: `Device ${id}`,
    uniqueId: `${100000 + id}`,
    status: 'online',
    lastUpdate: null,
    positionId: 0,
    phone: null,
    model: null,
    contact: null,
    category: null,
    disabled: false,
    expirationTime: null,
    ...over,
  };
}

export function position(
  deviceId: number,
  attributes: Attributes = {},
  over: Partial<Position> = {},
): Position {
  return {
    id: deviceId * 10,
    attributes,
    deviceId,
    protocol: 'osmand',
    serverTime: '2026-01-01T00:00:00.000+00:00',
    deviceTime: '2026-01-01T00:00:00.000+00:00',
    fixTime: '2026-01-01T00:00:00.000+00:00',
    valid: true,
    latitude: -23.5,
    longitude: -46.6,
    altitude: 0,
    speed: 0,
    course: 0,
    address: null,
    accuracy: 0,
    network: null,
    geofenceIds: null,
    ...over,
  };
}
