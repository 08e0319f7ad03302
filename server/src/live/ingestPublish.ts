// What the live core tells its listeners (the socket, the notifications) and the in-process bus once a batch, an
// event or another process's batch is stored (live/ingest.ts publish). A failing listener is logged, never thrown.
import type { EventEmitter } from 'node:events';
import type { Device, Event, Position } from '@rastro/domain';
import type { LiveListener } from './types.ts';

export function publishToListeners(
  ctx: { log: { error: (o: object, msg: string) => void }; bus: EventEmitter },
  listeners: Iterable<LiveListener>,
  news: { devices: Device[]; latest: Position[]; events: Event[] },
  remote: boolean,
): void {
  const { devices, latest, events } = news;
  for (const l of listeners) {
    if (remote && !l.remote) continue;
    try {
      if (devices.length && l.devices) l.devices(devices);
      if (latest.length && l.positions) l.positions(latest);
      if (events.length && l.events) l.events(events);
    } catch (err) {
      ctx.log.error({ err }, 'live listener failed');
    }
  }
  if (remote) return;
  for (const p of latest) ctx.bus.emit('position', p);
  for (const e of events) ctx.bus.emit('event', e);
}
