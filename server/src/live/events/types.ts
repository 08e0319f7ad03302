// What every position event handler receives: the live cache, the device, its previous latest position and the
// new one, and `add`, the live core's way to store an event for the new position (CONTRACT §7).
import type { Event, Position } from '@rastro/domain';
import type { LiveCache } from '../cache.ts';

export type AddEvent = (type: string, extra?: Partial<Event>) => void;

export interface HandlerInput {
  cache: LiveCache;
  deviceId: number;
  /** The device's latest position before this one (null for its first). */
  prev: Position | null;
  position: Position;
  add: AddEvent;
}

/** A finite number from a number or a numeric string; undefined otherwise. */
export function numeric(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
