// The live core (CONTRACT §7): every decoded position goes through distance → geofences → motion → engine hours
// → store → events (ignition, alarm, geofence, overspeed, motion, queued commands) → device status and latest
// position → listeners (socket, notifications). Positions are queued and processed in batches, one SQLite
// transaction per batch with prepared statements; per-device state stays in memory.
import type BetterSqlite3 from 'better-sqlite3';
import type { Attributes, Command, Device, Event, Position, QueuedCommand } from '@rastro/domain';
import { haversine, isInsideArea } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import type { IncomingPosition } from './types.ts';
import { LiveCache } from './cache.ts';
import { LiveEventHandlers } from './events/index.ts';
import { computeIncoming } from './computed/apply.ts';
import {
  deviceJson,
  eventFromRow,
  iso,
  positionFromRow,
  queuedFromRow,
  type EventDbRow,
  type LiveDeviceState,
  type PositionDbRow,
  type QueuedDbRow,
} from './json.ts';
import { createMotionTracker, tripParamsFrom, type MotionTracker } from './motion.ts';

export type { IncomingPosition };

export type IngestError = 'unknownDevice' | 'disabledDevice' | 'invalid' | 'failed';

export type IngestResult =
  | { ok: true; deviceId: number; position: Position; commands: QueuedCommand[] }
  | { ok: false; error: IngestError; message: string };

/** Receives what the live core produces. Every callback gets a batch (one processing tick). */
export interface LiveListener {
  /** Devices whose status/lastUpdate/positionId changed. */
  devices?(devices: Device[]): void;
  /** Positions that became their device's latest. */
  positions?(positions: Position[]): void;
  /** Stored events. */
  events?(events: Event[]): void;
}

/** A command receiver for devices reachable "live" (the simulator, or any connected channel). */
export type CommandHandler = (command: Command) => void | string | Promise<void | string | undefined>;

export interface CommandSink {
  /** Whether this sink can deliver to the device right now. */
  accepts(uniqueId: string): boolean;
  send(uniqueId: string, command: Command): void | string | Promise<void | string | undefined>;
  /** The command types this sink executes for the device (null when it is not one of its devices). */
  typesFor?(uniqueId: string): readonly string[] | null;
}

interface DevState extends LiveDeviceState {
  last: Position | null;
  loaded: boolean;
  overspeed: boolean;
  tracker: MotionTracker<Position> | null;
}

interface Pending {
  deviceId: number;
  p: IncomingPosition;
  resolve: (r: IngestResult) => void;
}

const BATCH = 2000;
const DEFAULT_MOTION_THRESHOLD = 0.01;
const round2 = (n: number) => Math.round(n * 100) / 100;

export class LiveCore {
  readonly cache: LiveCache;
  private readonly states = new Map<number, DevState>();
  private queue: Pending[] = [];
  private scheduled = false;
  private closed = false;
  private readonly listeners = new Set<LiveListener>();
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly sinks = new Set<CommandSink>();
  private readonly queuedDevices = new Set<number>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly sql: ReturnType<typeof prepare>;
  /** Fuel, maintenance and driver events, and the deviceInactive sweep (events/). */
  readonly liveEvents = new LiveEventHandlers(
    this,
    () => this.ctx,
    (id) => this.states.get(id)?.lastUpdate,
  );
  /** Receives raw device messages when someone watches them (the socket's `logs`). */
  logSink:
    | ((record: { host: string; protocol: string; uniqueId: string; deviceId: number; data: string }) => void)
    | null = null;
  /** Called with each report of an identifier no device has (autolink remembers it). */
  onUnknownDevice: ((p: IncomingPosition) => void) | null = null;
  /** Counters for diagnostics and the benchmark. */
  readonly stats = { received: 0, stored: 0, rejected: 0, events: 0 };

  constructor(private readonly ctx: AppContext) {
    this.cache = new LiveCache(ctx);
    const db = ctx.store.sqlite;
    // Server start: every status is reset (rendered "offline") until the device reports again (CONTRACT §7).
    db.prepare('UPDATE devices SET status = NULL').run();
    this.sql = prepare(db);
    for (const r of db.prepare('SELECT DISTINCT deviceId FROM queued_commands').all() as {
      deviceId: number;
    }[]) {
      this.queuedDevices.add(r.deviceId);
    }
  }

  start(): void {
    const timeoutMs = this.ctx.config.statusTimeoutSeconds * 1000;
    this.sweepTimer = setInterval(() => this.sweep(), Math.max(1000, Math.floor(timeoutMs / 10)));
    this.sweepTimer.unref();
  }

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    while (this.queue.length > 0) this.flush();
    this.closed = true;
  }

  subscribe(l: LiveListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  invalidate(): void {
    this.cache.invalidate();
  }

  /** Resolves a device by uniqueId (trimmed) or id, refreshing the cache once on a miss. */
  findDevice(ref: { uniqueId?: string; deviceId?: number }): number | undefined {
    const lookup = () =>
      ref.deviceId !== undefined
        ? this.cache.devices.has(ref.deviceId)
          ? ref.deviceId
          : undefined
        : this.cache.byUniqueId.get((ref.uniqueId ?? '').trim());
    this.cache.fresh();
    let id = lookup();
    if (id === undefined) {
      const row =
        ref.deviceId !== undefined
          ? this.sql.deviceById.get(ref.deviceId)
          : this.sql.deviceByUniqueId.get((ref.uniqueId ?? '').trim());
      if (row) {
        this.cache.invalidate();
        this.cache.fresh();
        id = lookup();
      }
    }
    return id;
  }

  ingest(p: IncomingPosition): Promise<IngestResult> {
    this.stats.received++;
    const invalid = validate(p);
    if (invalid) {
      this.stats.rejected++;
      return Promise.resolve({ ok: false, error: 'invalid', message: invalid });
    }
    const deviceId = this.findDevice(p);
    if (deviceId === undefined) {
      this.stats.rejected++;
      if (p.uniqueId !== undefined) this.onUnknownDevice?.(p);
      const ref = p.uniqueId !== undefined ? `uniqueId ${p.uniqueId}` : `id ${p.deviceId}`;
      return Promise.resolve({ ok: false, error: 'unknownDevice', message: `Unknown device (${ref})` });
    }
    const d = this.cache.device(deviceId)!;
    if (d.disabled || (d.expirationTime && Date.parse(d.expirationTime) < Date.now())) {
      this.stats.rejected++;
      return Promise.resolve({
        ok: false,
        error: 'disabledDevice',
        message: 'Device is disabled or expired',
      });
    }
    if (this.closed)
      return Promise.resolve({ ok: false, error: 'failed', message: 'Server is shutting down' });
    return new Promise((resolve) => {
      this.queue.push({ deviceId, p, resolve });
      this.schedule();
    });
  }

  ingestMany(ps: IncomingPosition[]): Promise<IngestResult[]> {
    return Promise.all(ps.map((p) => this.ingest(p)));
  }

  /** Processes everything queued now (tests and shutdown); normally batches run on setImmediate. */
  flushNow(): void {
    while (this.queue.length > 0) this.flush();
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
      if (this.queue.length > 0) this.schedule();
    });
  }

  private flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue.length > BATCH ? this.queue.splice(0, BATCH) : this.queue.splice(0);
    const cache = this.cache.fresh();
    const results: IngestResult[] = [];
    const changedDevices = new Set<number>();
    const latest: Position[] = [];
    const events: Event[] = [];
    const handlerCalls: Array<() => void> = [];
    this.ctx.store.sqlite.transaction(() => {
      for (const item of batch) {
        try {
          results.push(this.processOne(item, cache, changedDevices, latest, events, handlerCalls));
        } catch (err) {
          this.ctx.log.error({ err }, 'position processing failed');
          results.push({ ok: false, error: 'failed', message: 'Position processing failed' });
        }
      }
      // one device row update per device per batch
      for (const id of changedDevices) {
        const st = this.states.get(id)!;
        this.sql.updateDevice.run({
          status: st.status,
          lastUpdate: st.lastUpdate ? st.lastUpdate.toISOString() : null,
          positionId: st.positionId,
          id,
        });
      }
    })();
    this.publish(changedDevices, latest, events);
    for (let i = 0; i < batch.length; i++) batch[i].resolve(results[i]);
    for (const call of handlerCalls) call();
  }

  private publish(changedDevices: Iterable<number>, latest: Position[], events: Event[]): void {
    const devices: Device[] = [];
    for (const id of changedDevices) {
      const dj = this.deviceJson(id);
      if (dj) devices.push(dj);
    }
    for (const l of this.listeners) {
      try {
        if (devices.length && l.devices) l.devices(devices);
        if (latest.length && l.positions) l.positions(latest);
        if (events.length && l.events) l.events(events);
      } catch (err) {
        this.ctx.log.error({ err }, 'live listener failed');
      }
    }
    for (const p of latest) this.ctx.bus.emit('position', p);
    for (const e of events) this.ctx.bus.emit('event', e);
  }

  /** The device as the API shows it, with its live status. */
  deviceJson(id: number): Device | undefined {
    const d = this.cache.fresh().device(id);
    if (!d) return undefined;
    const st = this.states.get(id);
    return deviceJson(d, this.cache.deviceAttrs.get(id) ?? {}, st?.loaded ? st : undefined);
  }

  private state(deviceId: number): DevState {
    let st = this.states.get(deviceId);
    if (!st) {
      const d = this.cache.device(deviceId);
      st = {
        status: null,
        lastUpdate: d?.lastUpdate ? new Date(d.lastUpdate) : null,
        positionId: d?.positionId ?? 0,
        last: null,
        loaded: false,
        overspeed: false,
        tracker: null,
      };
      this.states.set(deviceId, st);
    }
    if (!st.loaded) {
      st.loaded = true;
      if (st.positionId) {
        const row = this.sql.positionById.get(st.positionId) as PositionDbRow | undefined;
        if (row) st.last = positionFromRow(row);
      }
    }
    return st;
  }

  /** The device's latest position (memory first, then the store). */
  latestPosition(deviceId: number): Position | null {
    if (!this.cache.fresh().device(deviceId)) return null;
    return this.state(deviceId).last;
  }

  /** Gives the device's latest position an address found later (a new object: latest positions are immutable). */
  setLatestAddress(deviceId: number, positionId: number, address: string): void {
    const st = this.states.get(deviceId);
    if (st?.last?.id === positionId) st.last = { ...st.last, address };
  }

  /**
   * Marks the latest position with the driver announced outside the pipeline (QR check-in: its driverChanged
   * event is stored at once), so the next position with the same driver raises no second event.
   */
  setLatestDriver(deviceId: number, driverUniqueId: string | null): void {
    const st = this.state(deviceId);
    if (!st.last) return;
    const attributes = { ...st.last.attributes };
    if (driverUniqueId) attributes.driverUniqueId = driverUniqueId;
    else delete attributes.driverUniqueId;
    st.last = { ...st.last, attributes };
  }

  isOnline(deviceId: number): boolean {
    return this.states.get(deviceId)?.status === 'online';
  }

  private processOne(
    item: Pending,
    cache: LiveCache,
    changedDevices: Set<number>,
    latestOut: Position[],
    eventsOut: Event[],
    handlerCalls: Array<() => void>,
  ): IngestResult {
    const { deviceId } = item;
    let { p } = item;
    const now = new Date();
    const st = this.state(deviceId);
    const prev = st.last;
    const attrs: Record<string, unknown> = { ...(p.attributes ?? {}) };
    const fixMs = p.fixTime.getTime();
    const deviceMs = (p.deviceTime ?? p.fixTime).getTime();
    const isLatest = !prev || fixMs >= Date.parse(prev.fixTime);

    // distance / totalDistance
    const sentDistance = Number(attrs.distance);
    const distance =
      attrs.distance !== undefined && Number.isFinite(sentDistance)
        ? sentDistance
        : prev
          ? haversine(prev.latitude, prev.longitude, p.latitude, p.longitude)
          : 0;
    attrs.distance = round2(distance);
    const prevTotal = Number(prev?.attributes.totalDistance ?? 0) || 0;
    attrs.totalDistance = round2(prevTotal + distance);

    // geofences of the device and its group chain
    let altitude = p.altitude ?? 0;
    const inside: number[] = [];
    for (const g of cache.deviceGeofences(deviceId)) {
      if (g.calendarId && !cache.calendarActive(g.calendarId, fixMs)) continue;
      const floor = Number(g.attrs.floor);
      const ceiling = Number(g.attrs.ceiling);
      if (g.attrs.floor !== undefined && Number.isFinite(floor) && altitude < floor) continue;
      if (g.attrs.ceiling !== undefined && Number.isFinite(ceiling) && ceiling > 0 && altitude > ceiling)
        continue;
      const pd = Number(g.attrs.polylineDistance);
      if (isInsideArea(g.shape!, p, Number.isFinite(pd) && pd > 0 ? pd : undefined)) inside.push(g.id);
    }
    inside.sort((a, b) => a - b);

    // motion
    if (attrs.motion === undefined) {
      const threshold =
        cache.deviceNumber(deviceId, 'event.motion.speedThreshold') ?? DEFAULT_MOTION_THRESHOLD;
      attrs.motion = (p.speed ?? 0) > threshold;
    }

    // the device's driver (device form "driver", or a QR driver checked in) when the tracker sends none
    if (attrs.driverUniqueId === undefined) {
      const driver = cache.deviceAttrs.get(deviceId)?.driverUniqueId;
      if (typeof driver === 'string' && driver.trim() !== '') attrs.driverUniqueId = driver.trim();
    }

    // computed attributes (after motion, before engine hours; may set speed, course, altitude, accuracy, valid)
    p = computeIncoming(this.ctx, cache.deviceComputed(deviceId), deviceId, p, attrs, now);
    altitude = p.altitude ?? 0;

    // engine hours (ms), only while both positions have ignition on
    if (attrs.hours === undefined && prev) {
      let hours = Number(prev.attributes.hours ?? 0) || 0;
      const delta = deviceMs - Date.parse(prev.deviceTime);
      if (prev.attributes.ignition === true && attrs.ignition === true && delta > 0) hours += delta;
      if (hours !== 0) attrs.hours = hours;
    }

    // store
    const row = {
      deviceId,
      protocol: p.protocol,
      serverTime: now.toISOString(),
      deviceTime: new Date(deviceMs).toISOString(),
      fixTime: p.fixTime.toISOString(),
      valid: p.valid === false ? 0 : 1,
      latitude: p.latitude,
      longitude: p.longitude,
      altitude,
      speed: p.speed ?? 0,
      course: p.course ?? 0,
      accuracy: p.accuracy ?? 0,
      network: p.network ? JSON.stringify(p.network) : null,
      geofenceIds: inside.length ? JSON.stringify(inside) : null,
      attributes: JSON.stringify(attrs),
    };
    const id = Number(this.sql.insertPosition.run(row).lastInsertRowid);
    this.stats.stored++;
    const position: Position = {
      id,
      attributes: attrs as Attributes,
      deviceId,
      protocol: p.protocol,
      serverTime: iso(now),
      deviceTime: iso(deviceMs),
      fixTime: iso(fixMs),
      valid: row.valid === 1,
      latitude: p.latitude,
      longitude: p.longitude,
      altitude,
      speed: row.speed,
      course: row.course,
      address: null,
      accuracy: row.accuracy,
      network: (p.network as Record<string, unknown> | null | undefined) ?? null,
      geofenceIds: inside.length ? inside : null,
      outdated: !!p.outdated,
    };

    // events
    const add = (type: string, extra: Partial<Event> = {}, eventPosition: Position = position) => {
      eventsOut.push(this.storeEvent(type, deviceId, eventPosition, extra));
    };
    // alarms: one event per alarm value not present in the previous position
    if (typeof attrs.alarm === 'string' && attrs.alarm.trim() !== '') {
      const before = new Set(
        isLatest && typeof prev?.attributes.alarm === 'string' ? splitList(prev.attributes.alarm) : [],
      );
      for (const a of splitList(attrs.alarm)) if (!before.has(a)) add('alarm', { attributes: { alarm: a } });
    }
    if (isLatest) {
      if (prev && typeof prev.attributes.ignition === 'boolean' && typeof attrs.ignition === 'boolean') {
        if (!prev.attributes.ignition && attrs.ignition) add('ignitionOn');
        else if (prev.attributes.ignition && !attrs.ignition) add('ignitionOff');
      }
      if (prev) {
        const before = new Set(prev.geofenceIds ?? []);
        const after = new Set(inside);
        for (const g of before) if (!after.has(g)) add('geofenceExit', { geofenceId: g });
        for (const g of inside) if (!before.has(g)) add('geofenceEnter', { geofenceId: g });
      }
      this.overspeed(st, cache, deviceId, position, inside, add);
      this.liveEvents.fuel({ cache, deviceId, prev, position, add });
      if (!st.tracker) {
        const d = cache.device(deviceId);
        const groupAttrs = d ? cache.groupChain(d.groupId).map((g) => cache.groupAttrs.get(g)) : [];
        st.tracker = createMotionTracker<Position>({
          ...tripParamsFrom(cache.deviceAttrs.get(deviceId), ...groupAttrs, cache.serverAttrs),
          initialMoving: prev?.attributes.motion === true,
        });
        if (prev) st.tracker.update(prev);
      }
      for (const m of st.tracker.update(position)) add(m.type, {}, m.position);
      this.liveEvents.late({ cache, deviceId, prev, position, add });
    }

    // status
    const wasOnline = st.status === 'online';
    st.status = 'online';
    st.lastUpdate = now;
    if (!wasOnline && this.statusEvents()) add('deviceOnline', { positionId: 0, eventTime: iso(now) });
    if (isLatest) {
      st.last = position;
      st.positionId = id;
      latestOut.push(position);
    }
    changedDevices.add(deviceId);

    // queued commands: one per report (an HTTP device can take a single answer)
    const commands: QueuedCommand[] = [];
    if (this.queuedDevices.has(deviceId)) {
      const q = this.sql.firstQueued.get(deviceId) as QueuedDbRow | undefined;
      if (q) {
        this.sql.deleteQueued.run(q.id);
        const cmd = queuedFromRow(q);
        commands.push(cmd);
        add('queuedCommandSent', { positionId: 0, eventTime: iso(now), attributes: { type: cmd.type } });
        const handler = this.liveHandler(cache.device(deviceId)?.uniqueId ?? '');
        if (handler)
          handlerCalls.push(() => void this.callHandler(deviceId, handler, { ...cmd, description: null }));
      }
      if (!this.sql.firstQueued.get(deviceId)) this.queuedDevices.delete(deviceId);
    }
    return { ok: true, deviceId, position, commands };
  }

  private overspeed(
    st: DevState,
    cache: LiveCache,
    deviceId: number,
    position: Position,
    inside: number[],
    add: (type: string, extra?: Partial<Event>) => void,
  ): void {
    let limit = cache.deviceNumber(deviceId, 'speedLimit') ?? 0;
    const posLimit = Number(position.attributes.speedLimit);
    if (Number.isFinite(posLimit) && posLimit > 0) limit = posLimit;
    let geofenceId = 0;
    for (const g of inside) {
      const gl = Number(cache.geofences.get(g)?.attrs.speedLimit);
      if (Number.isFinite(gl) && gl > 0 && (geofenceId === 0 || gl < limit)) {
        limit = gl;
        geofenceId = g;
      }
    }
    if (!(limit > 0)) {
      st.overspeed = false;
      return;
    }
    if (position.speed > limit) {
      if (!st.overspeed) {
        st.overspeed = true;
        add('deviceOverspeed', { geofenceId, attributes: { speed: position.speed, speedLimit: limit } });
      }
    } else {
      st.overspeed = false;
    }
  }

  /** Status events are on unless the server attribute `event.status.enable` is false. */
  private statusEvents(): boolean {
    const v = this.cache.serverAttrs['event.status.enable'];
    return !(v === false || v === 'false');
  }

  /** Inserts an event (inside or outside a batch transaction) and returns its API form. */
  storeEvent(type: string, deviceId: number, position: Position | null, extra: Partial<Event> = {}): Event {
    const ev = {
      type,
      eventTime: extra.eventTime ?? position?.deviceTime ?? iso(Date.now()),
      deviceId,
      positionId: extra.positionId ?? position?.id ?? 0,
      geofenceId: extra.geofenceId ?? 0,
      maintenanceId: extra.maintenanceId ?? 0,
      attributes: JSON.stringify(extra.attributes ?? {}),
    };
    const id = Number(
      this.sql.insertEvent.run({ ...ev, eventTime: new Date(ev.eventTime).toISOString() }).lastInsertRowid,
    );
    this.stats.events++;
    return eventFromRow({ ...ev, id } as EventDbRow);
  }

  /** Stores and publishes events created outside the position pipeline (status sweep, command results). */
  emitEvents(make: () => Event[], changedDevices: number[] = []): Event[] {
    const events = this.ctx.store.sqlite.transaction(make)();
    this.publish(changedDevices, [], events);
    return events;
  }

  /** Devices silent for statusTimeoutSeconds turn "unknown" (never "offline" for HTTP protocols). */
  sweep(now = Date.now()): void {
    this.liveEvents.sweep(now);
    const limit = now - this.ctx.config.statusTimeoutSeconds * 1000;
    const stale: number[] = [];
    for (const [id, st] of this.states) {
      if (st.status === 'online' && st.lastUpdate && st.lastUpdate.getTime() < limit) stale.push(id);
    }
    if (stale.length === 0) return;
    this.cache.fresh();
    this.emitEvents(() => {
      const out: Event[] = [];
      for (const id of stale) {
        const st = this.states.get(id)!;
        st.status = 'unknown';
        this.sql.updateStatus.run('unknown', id);
        if (this.statusEvents())
          out.push(this.storeEvent('deviceUnknown', id, null, { eventTime: iso(now) }));
      }
      return out;
    }, stale);
  }

  // ---- commands -------------------------------------------------------------------------------------------

  /** Registers a live receiver for one device (e.g. a simulated device). Returns an unsubscribe function. */
  onCommand(uniqueId: string, handler: CommandHandler): () => void {
    this.handlers.set(uniqueId, handler);
    return () => {
      if (this.handlers.get(uniqueId) === handler) this.handlers.delete(uniqueId);
    };
  }

  /** Registers a receiver for many devices at once (the simulator). */
  addCommandSink(sink: CommandSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** The command types a sink declares for the device (the simulated trackers), or null. */
  commandTypesOf(deviceId: number): readonly string[] | null {
    const d = this.cache.fresh().device(deviceId);
    if (!d) return null;
    for (const s of this.sinks) {
      const types = s.typesFor?.(d.uniqueId);
      if (types) return types;
    }
    return null;
  }

  private liveHandler(uniqueId: string): CommandHandler | undefined {
    const h = this.handlers.get(uniqueId);
    if (h) return h;
    for (const s of this.sinks) if (s.accepts(uniqueId)) return (c) => s.send(uniqueId, c);
    return undefined;
  }

  /** A command goes live when the device is online and something can deliver it now. */
  canSendLive(deviceId: number): boolean {
    const d = this.cache.fresh().device(deviceId);
    return !!d && this.isOnline(deviceId) && !!this.liveHandler(d.uniqueId);
  }

  /** Delivers a command now; a string answer from the receiver becomes a commandResult event. */
  async sendLive(deviceId: number, command: Command): Promise<void> {
    const d = this.cache.fresh().device(deviceId);
    const h = d ? this.liveHandler(d.uniqueId) : undefined;
    if (!h) throw new Error('Device is not reachable');
    await this.callHandler(deviceId, h, command);
  }

  private async callHandler(deviceId: number, h: CommandHandler, command: Command): Promise<void> {
    try {
      const result = await h(command);
      if (typeof result === 'string') this.commandResult(deviceId, result);
    } catch (err) {
      this.ctx.log.warn({ err, deviceId }, 'command handler failed');
    }
  }

  /** Records a device's answer to a command (event commandResult with attributes.result). */
  commandResult(deviceId: number, result: string): Event {
    const pos = this.latestPosition(deviceId);
    return this.emitEvents(() => [
      this.storeEvent('commandResult', deviceId, null, {
        positionId: pos?.id ?? 0,
        eventTime: iso(Date.now()),
        attributes: { result },
      }),
    ])[0];
  }

  queueCommand(deviceId: number, c: Pick<Command, 'type' | 'textChannel' | 'attributes'>): QueuedCommand {
    const row = {
      deviceId,
      type: c.type,
      textChannel: c.textChannel ? 1 : 0,
      attributes: JSON.stringify(c.attributes ?? {}),
      createdAt: new Date().toISOString(),
    };
    const id = Number(this.sql.insertQueued.run(row).lastInsertRowid);
    this.queuedDevices.add(deviceId);
    return queuedFromRow({ ...row, id });
  }

  // ---- accumulators ---------------------------------------------------------------------------------------

  /** Copies the latest position with new totalDistance/hours, stores it as the latest and pushes it. */
  setAccumulators(
    deviceId: number,
    totalDistance: number | null | undefined,
    hours: number | null | undefined,
  ): boolean {
    this.flushNow();
    const last = this.latestPosition(deviceId);
    if (!last) return false;
    const st = this.state(deviceId);
    const attrs: Record<string, unknown> = { ...last.attributes };
    if (typeof totalDistance === 'number') attrs.totalDistance = totalDistance;
    if (typeof hours === 'number') attrs.hours = hours;
    const now = new Date();
    const row = {
      deviceId,
      protocol: last.protocol,
      serverTime: now.toISOString(),
      deviceTime: new Date(last.deviceTime).toISOString(),
      fixTime: new Date(last.fixTime).toISOString(),
      valid: last.valid ? 1 : 0,
      latitude: last.latitude,
      longitude: last.longitude,
      altitude: last.altitude,
      speed: last.speed,
      course: last.course,
      accuracy: last.accuracy,
      network: last.network ? JSON.stringify(last.network) : null,
      geofenceIds: last.geofenceIds ? JSON.stringify(last.geofenceIds) : null,
      attributes: JSON.stringify(attrs),
    };
    const position = this.ctx.store.sqlite.transaction(() => {
      const id = Number(this.sql.insertPosition.run(row).lastInsertRowid);
      this.sql.setPositionId.run(id, deviceId);
      return { ...last, id, serverTime: iso(now), attributes: attrs as Attributes };
    })();
    st.last = position;
    st.positionId = position.id;
    this.publish([deviceId], [position], []);
    return true;
  }
}

function splitList(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

function validate(p: IncomingPosition): string | null {
  if (!p || typeof p !== 'object') return 'Position expected';
  if (p.uniqueId === undefined && p.deviceId === undefined) return 'Device id missing';
  if (!(p.fixTime instanceof Date) || !Number.isFinite(p.fixTime.getTime())) return 'Invalid fix time';
  if (
    p.deviceTime !== undefined &&
    (!(p.deviceTime instanceof Date) || !Number.isFinite(p.deviceTime.getTime()))
  )
    return 'Invalid device time';
  if (!Number.isFinite(p.latitude) || Math.abs(p.latitude) > 90) return 'Latitude out of range';
  if (!Number.isFinite(p.longitude) || Math.abs(p.longitude) > 180) return 'Longitude out of range';
  for (const k of ['altitude', 'speed', 'course', 'accuracy'] as const) {
    if (p[k] !== undefined && !Number.isFinite(p[k])) return `Invalid ${k}`;
  }
  return null;
}

function prepare(db: BetterSqlite3.Database) {
  return {
    deviceById: db.prepare('SELECT id FROM devices WHERE id = ?'),
    deviceByUniqueId: db.prepare('SELECT id FROM devices WHERE uniqueId = ?'),
    positionById: db.prepare('SELECT * FROM positions WHERE id = ?'),
    insertPosition: db.prepare(
      `INSERT INTO positions (deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude,
        altitude, speed, course, accuracy, network, geofenceIds, attributes)
       VALUES (@deviceId, @protocol, @serverTime, @deviceTime, @fixTime, @valid, @latitude, @longitude,
        @altitude, @speed, @course, @accuracy, @network, @geofenceIds, @attributes)`,
    ),
    insertEvent: db.prepare(
      `INSERT INTO events (type, eventTime, deviceId, positionId, geofenceId, maintenanceId, attributes)
       VALUES (@type, @eventTime, @deviceId, @positionId, @geofenceId, @maintenanceId, @attributes)`,
    ),
    updateDevice: db.prepare(
      'UPDATE devices SET status = @status, lastUpdate = @lastUpdate, positionId = @positionId WHERE id = @id',
    ),
    updateStatus: db.prepare('UPDATE devices SET status = ? WHERE id = ?'),
    setPositionId: db.prepare('UPDATE devices SET positionId = ? WHERE id = ?'),
    firstQueued: db.prepare('SELECT * FROM queued_commands WHERE deviceId = ? ORDER BY id LIMIT 1'),
    deleteQueued: db.prepare('DELETE FROM queued_commands WHERE id = ?'),
    insertQueued: db.prepare(
      `INSERT INTO queued_commands (deviceId, type, textChannel, attributes, createdAt)
       VALUES (@deviceId, @type, @textChannel, @attributes, @createdAt)`,
    ),
  };
}

const cores = new WeakMap<AppContext, LiveCore>();

/** The app's live core (created on first use; registerLive starts its timers). */
export function getLive(ctx: AppContext): LiveCore {
  let core = cores.get(ctx);
  if (!core) {
    core = new LiveCore(ctx);
    cores.set(ctx, core);
  }
  return core;
}
