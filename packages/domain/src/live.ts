// SPEC §4 live socket rules that are not drawing: message shape, reconnect delay, the qrDriverId session re-check.
import { attrPresent } from './attributes.ts';
import type { Device, SocketMessage } from './types.ts';

const KEYS = ['devices', 'positions', 'events', 'users', 'logs', 'alarms', 'removedDevices'] as const;

/**
 * Parses one socket frame; keeps only the known keys whose value is an array ({} is the keepalive). Null for
 * anything that is not a JSON object.
 */
export function parseSocketMessage(raw: string): SocketMessage | null {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const out: Record<string, unknown[]> = {};
  for (const k of KEYS) {
    const v = (data as Record<string, unknown>)[k];
    if (Array.isArray(v)) out[k] = v;
  }
  return out as SocketMessage;
}

/** A device that loses its qrDriverId triggers a session re-check. */
export function lostQrDriver(
  prev: Pick<Device, 'attributes'> | undefined,
  next: Pick<Device, 'attributes'>,
): boolean {
  return !!prev && attrPresent(prev.attributes?.qrDriverId) && !attrPresent(next.attributes?.qrDriverId);
}

/** True when any device in an update lost its qrDriverId compared with the known devices. */
export function needsSessionRecheck(
  known: ReadonlyMap<number, Pick<Device, 'id' | 'attributes'>>,
  updates: readonly Pick<Device, 'id' | 'attributes'>[],
): boolean {
  return updates.some((d) => lostQrDriver(known.get(d.id), d));
}
