// driverChanged (Traccar's driver handler): the position's `driverUniqueId` differs from the previous latest
// position's, or the previous one had none (or there was none). One event carrying the new id.
import type { HandlerInput } from './types.ts';

const driverOf = (attrs: Record<string, unknown> | undefined): string | undefined => {
  const v = attrs?.driverUniqueId;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

export function driverEvents({ prev, position, add }: HandlerInput): void {
  const current = driverOf(position.attributes);
  if (current === undefined) return;
  if (current !== driverOf(prev?.attributes))
    add('driverChanged', { attributes: { driverUniqueId: current } });
}
