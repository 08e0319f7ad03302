// maintenance: for every maintenance linked to the device or its group chain (links of propertyType
// `maintenance`), an event when the value named by its `type` crosses start + k·period (k ≥ 0) between the
// previous latest position and this one; one event per position and maintenance even when a jump passes
// several boundaries (as Traccar). `type` is a numeric position field or attribute (`totalDistance`, `hours`,
// `odometer`, ...) or `serverTime`/`deviceTime`/`fixTime` as epoch ms. Positions lacking the value are skipped.
import type { Position } from '@rastro/domain';
// The maintenances themselves come with the live cache (its reload reads them on the pool: issue #30, session 36),
// so handling a position never reads the store.
import type { LiveCache, Maintenance } from '../cache.ts';
import { numeric, type HandlerInput } from './types.ts';

const TIME_KEYS = new Set(['serverTime', 'deviceTime', 'fixTime']);
const FIELD_KEYS = new Set(['latitude', 'longitude', 'altitude', 'speed', 'course', 'accuracy']);

/** The value a maintenance of `type` reads from a position (undefined when the position lacks it). */
export function maintenanceValue(p: Position, type: string): number | undefined {
  if (TIME_KEYS.has(type)) {
    const t = Date.parse(p[type as 'serverTime' | 'deviceTime' | 'fixTime']);
    return Number.isFinite(t) ? t : undefined;
  }
  if (FIELD_KEYS.has(type)) return numeric(p[type as keyof Position]);
  return numeric(p.attributes[type]);
}

/** Whether going from `before` to `after` reaches a new start + k·period boundary. */
export function crossesBoundary(before: number, after: number, start: number, period: number): boolean {
  if (!(period > 0) || after < start) return false;
  if (before < start) return true;
  return Math.floor((before - start) / period) < Math.floor((after - start) / period);
}

export class MaintenanceWatch {
  private byDevice = new Map<number, Maintenance[]>();
  /** The cache's server record object: a new one after every cache reload, so ours follows it. */
  private loadedFor: unknown = null;

  /** Maintenances linked to the device or its group chain (kept per device until the live cache reloads). */
  deviceMaintenances(cache: LiveCache, deviceId: number): Maintenance[] {
    if (this.loadedFor !== cache.server) {
      this.loadedFor = cache.server;
      this.byDevice.clear();
    }
    let out = this.byDevice.get(deviceId);
    if (!out) {
      const d = cache.device(deviceId);
      const ids = new Set(d ? cache.linked('device', deviceId, 'maintenance') : []);
      for (const g of d ? cache.groupChain(d.groupId) : []) {
        for (const id of cache.linked('group', g, 'maintenance')) ids.add(id);
      }
      out = [...ids].flatMap((id) => cache.maintenances.get(id) ?? []).sort((a, b) => a.id - b.id);
      this.byDevice.set(deviceId, out);
    }
    return out;
  }

  handle({ cache, deviceId, prev, position, add }: HandlerInput): void {
    if (!prev) return;
    for (const m of this.deviceMaintenances(cache, deviceId)) {
      const before = maintenanceValue(prev, m.type);
      const after = maintenanceValue(position, m.type);
      if (before === undefined || after === undefined) continue;
      if (crossesBoundary(before, after, m.start, m.period))
        add('maintenance', { maintenanceId: m.id, attributes: { [m.type]: after } });
    }
  }
}
