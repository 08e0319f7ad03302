// SPEC §3/§4 anchor: a 150 m circle geofence around the device's last position, linked to the device.
import { attrBool, attrNumber } from './attributes.ts';
import type { Device, Geofence, Position } from './types.ts';

export const ANCHOR_GEOFENCE_ID = -1;
export const ANCHOR_RADIUS_M = 150;
export const ANCHOR_COMMANDS = ['anchor_enable', 'anchor_disable'] as const;
export type AnchorCommand = (typeof ANCHOR_COMMANDS)[number];

/** The geofence to POST when anchoring (id -1 until the server assigns one). */
export function buildAnchorGeofence(
  device: Pick<Device, 'id' | 'name'>,
  position: Pick<Position, 'latitude' | 'longitude'>,
): Geofence {
  return {
    id: ANCHOR_GEOFENCE_ID,
    name: `Anchor ${device.name}`,
    description: '',
    area: `CIRCLE (${position.latitude} ${position.longitude}, ${ANCHOR_RADIUS_M})`,
    calendarId: 0,
    attributes: { deviceId: device.id, isAnchor: true },
  };
}

/** The permission link that ties the anchor to its device. */
export function anchorLink(deviceId: number, geofenceId: number): { deviceId: number; geofenceId: number } {
  return { deviceId, geofenceId };
}

export function isAnchorGeofence(g: Pick<Geofence, 'attributes'>): boolean {
  return attrBool(g.attributes?.isAnchor);
}

/** Anchors are kept apart from normal fences. */
export function splitGeofences<T extends Pick<Geofence, 'attributes'>>(
  list: readonly T[],
): { anchors: T[]; fences: T[] } {
  const anchors: T[] = [];
  const fences: T[] = [];
  for (const g of list) (isAnchorGeofence(g) ? anchors : fences).push(g);
  return { anchors, fences };
}

export function anchorDeviceId(g: Pick<Geofence, 'attributes'>): number | undefined {
  return isAnchorGeofence(g) ? attrNumber(g.attributes?.deviceId) : undefined;
}

export function anchorForDevice<T extends Pick<Geofence, 'attributes'>>(
  list: readonly T[],
  deviceId: number,
): T | undefined {
  return list.find((g) => anchorDeviceId(g) === deviceId);
}

export function anchoredDeviceIds(list: readonly Pick<Geofence, 'attributes'>[]): Set<number> {
  const out = new Set<number>();
  for (const g of list) {
    const id = anchorDeviceId(g);
    if (id !== undefined) out.add(id);
  }
  return out;
}

/** Not anchored ⇒ anchor_enable (create); anchored ⇒ anchor_disable (delete). */
export function nextAnchorCommand(anchored: boolean): AnchorCommand {
  return anchored ? 'anchor_disable' : 'anchor_enable';
}

export function anchorMode(command: string): 'enable' | 'disable' | null {
  if (command === 'anchor_enable') return 'enable';
  if (command === 'anchor_disable') return 'disable';
  return null;
}
