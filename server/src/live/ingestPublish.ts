// What the live core hands its listeners (ingest.ts): a stored batch's device changes, latest positions and events,
// or those another server process stored (remote: only the listeners that take them).
import type { Device, Event, Position } from '@rastro/domain';
import type { LiveListener } from './types.ts';

/** Each listener gets what changed; one that throws is logged and the others still get it. */
export function toListeners(
  listeners: Iterable<LiveListener>,
  changed: { devices: Device[]; latest: Position[]; events: Event[] },
  remote: boolean,
  log: { error: (o: object, msg: string) => void },
): void {
  const { devices, latest, events } = changed;
  for (const l of listeners) {
    if (remote && !l.remote) continue;
    try {
      if (devices.length && l.devices) l.devices(devices);
      if (latest.length && l.positions) l.positions(latest);
      if (events.length && l.events) l.events(events);
    } catch (err) {
      log.error({ err }, 'live listener failed');
    }
  }
}
