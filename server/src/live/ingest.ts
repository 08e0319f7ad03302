// The live core (CONTRACT §7): every decoded position goes through distance → geofences → motion → engine hours →
// store → events (ignition, alarm, geofence, overspeed, motion, queued commands) → device status and latest position
// → listeners (socket, notifications). Positions are queued and processed in batches, each stored all or nothing: one
// transaction of the store (SQLite; flushNow, SQLite's only), or on PostgreSQL read ahead and written as one
// statement on the pool, batches of different devices side by side (pooledBatches.ts); per-device state stays in
// memory.
import type { Attributes, Device, Event, Position, QueuedCommand } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import type { RemoteDeviceState } from '../db/cluster.ts';
import { isDatabaseUnavailable, type SqlDatabase } from '../db/sql.ts';
import { inTransaction, syncSqliteOnly } from '../db/repos/query.ts';
import { eventRowOf, sweepStatuses } from './statusSweep.ts';
import type { IncomingPosition, IngestError, IngestResult, LiveListener } from './types.ts';
import { LiveCache } from './cache.ts';
import { LiveEventHandlers } from './events/index.ts';
import { computeIncoming } from './computed/apply.ts';
import { eventFromRow, iso, queuedFromRow, type EventDbRow } from './json.ts';
import {
  addDistance,
  addDriver,
  addEngineHours,
  addMotion,
  geofencesInside,
  positionEvents,
  speedLimitOf,
} from './ingestStages.ts';
import { insertPosition, readAhead, readAheadAsync, storedAt, validate } from './ingestSql.ts';
import type { StoredFixes } from './ingestSql.ts';
import { ingestWrites, type IngestWrites } from '../db/repos/ingestBatch.ts';
import { pooledIngest, type BatchRows, type PooledIngest } from '../db/repos/ingestPooled.ts';
import { LiveCommands } from './liveCommands.ts';
import { ActivityRecorder, fillActivity } from './activity.ts';
import type { CommandHandler, CommandSink } from './commandRouter.ts';
import { commitBatch, DISABLED, FAILED, newsOf, outcome, REFUSED, type Outcome } from './batchPipeline.ts';
import { PooledLanes, readPooled, type QueuedSource } from './pooledBatches.ts';
import { IngestSettleWaits } from './ingestSettle.ts';
import { publishToListeners } from './ingestPublish.ts';

export type { CommandHandler, CommandSink, IncomingPosition, IngestError, IngestResult, LiveListener };

interface Pending {
  deviceId: number;
  p: IncomingPosition;
  resolve: (r: IngestResult) => void;
}

const BATCH = 2000;

export class LiveCore extends LiveCommands {
  private queue: Pending[] = [];
  private scheduled = false;
  private filling: Promise<void> | null = null; // the activity fill at start (activity.ts)
  private readonly pooled: { ingest: PooledIngest; lanes: PooledLanes } | null; // PostgreSQL
  private readonly waits = new IngestSettleWaits<Pending>(); // PostgreSQL: the pooled batches in flight
  private closed = false;
  private readonly listeners = new Set<LiveListener>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping = false; // a status sweep's transaction is open (sweep)
  private readonly writes: IngestWrites; // a batch's rows in the store's transaction
  private target: IngestWrites; // where rows go: `writes`, or a pooled batch's rows while it is computed
  private readonly activity: ActivityRecorder; // the hours of activity of the dashboard and the scores
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
  readonly stats = { received: 0, stored: 0, rejected: 0, events: 0 }; // diagnostics, the benchmark

  constructor(private readonly ctx: AppContext) {
    super(new LiveCache(ctx), ctx.store.sql, (err, deviceId) =>
      ctx.log.warn({ err, deviceId }, 'command handler failed'),
    );
    const db = ctx.store.sql;
    // Server start: every status is reset by registerLive (live/index.ts; asynchronous since session 33).
    this.writes = this.target = ingestWrites(this.sql);
    const ingest = pooledIngest(db);
    this.pooled = ingest && { ingest, lanes: new PooledLanes(ingest, () => this.schedule()) };
    if (ingest) ingest.activity.failed = (err, what) => this.ctx.log.warn({ err }, what);
    this.activity = new ActivityRecorder(db);
  }

  start(): void {
    // the hours of activity filled without the main thread waiting, before any batch is stored (schedule())
    if (this.ctx.cluster.isLeader())
      this.filling = fillActivity(this.ctx.store.sql, this.cache, this.ctx.log).finally(() => {
        this.filling = null;
        this.schedule();
      });
    const timeoutMs = this.ctx.config.statusTimeoutSeconds * 1000;
    const sweep = () => {
      if (!this.ctx.cluster.isLeader()) return; // one process sweeps (db/cluster.ts)
      this.sweep().catch((err: unknown) => this.ctx.log.error({ err }, 'status sweep failed'));
    };
    this.sweepTimer = setInterval(sweep, Math.max(1000, Math.floor(timeoutMs / 10)));
    this.sweepTimer.unref();
  }

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.pooled) {
      while (this.waits.busy(this.queue)) await this.settle(); // PostgreSQL: never flushNow
      await this.pooled.ingest.activity.writeLast(); // the hours held
    } else await this.flushQueued();
    this.closed = true;
  }

  subscribe(l: LiveListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  invalidate(): void {
    this.cache.invalidate();
  }

  ingest(p: IncomingPosition): Promise<IngestResult> {
    this.stats.received++;
    const invalid = validate(p);
    if (invalid) {
      this.stats.rejected++;
      return Promise.resolve({ ok: false, error: 'invalid', message: invalid });
    }
    const found = this.resolveDevice(p); // a stale cache or a miss read on the pool
    return found instanceof Promise ? found.then((id) => this.admit(p, id)) : this.admit(p, found);
  }

  /** Refused, or queued for a batch (deviceId undefined: no device has the report's identifier). */
  private admit(p: IncomingPosition, deviceId: number | undefined): Promise<IngestResult> {
    if (deviceId === undefined) {
      this.stats.rejected++;
      if (p.uniqueId !== undefined) this.onUnknownDevice?.(p);
      const ref = p.uniqueId !== undefined ? `uniqueId ${p.uniqueId}` : `id ${p.deviceId}`;
      return Promise.resolve({ ok: false, error: 'unknownDevice', message: `Unknown device (${ref})` });
    }
    const d = this.cache.device(deviceId)!;
    if (d.disabled || (d.expirationTime && Date.parse(d.expirationTime) < Date.now())) {
      this.stats.rejected++;
      return Promise.resolve(DISABLED);
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

  /** SQLite (settle, close): each batch's reads done first (readFor: no synchronous reload), then its transaction. */
  private async flushQueued(): Promise<void> {
    while (this.queue.length > 0)
      if (this.readyFor(this.nextDevices())) this.flush();
      else await this.readFor(this.nextDevices, this.refuseNext);
  }

  private readonly nextDevices = () => this.queue.slice(0, BATCH).map((q) => q.deviceId);
  private readonly refuseNext = (err: unknown) => this.answer(this.queue.splice(0, BATCH), outcome(), err);

  /** SQLite only: what is queued stored in the store's synchronous transaction, the cache reloaded synchronously
   * (tests). PostgreSQL throws (issue #30, session 36: nothing reaches the synchronous handle): await settle(). */
  flushNow(): void {
    syncSqliteOnly(this.ctx.store.sql, 'flushNow (await settle())');
    while (this.queue.length > 0) this.flush();
  }

  /** Every report queued now stored or refused: PostgreSQL awaits its pooled batches (ingestSettle.ts), the
   * main thread free, never flushNow; SQLite flushQueued (its synchronous transaction after async reads). */
  async settle(): Promise<void> {
    if (!this.pooled) return this.flushQueued();
    if (!this.waits.busy(this.queue)) return;
    const answered = this.waits.until(this.queue);
    this.schedule();
    await answered;
  }

  private schedule(): void {
    if (this.scheduled || this.closed || this.filling) return;
    if (this.pooled && !this.pooled.lanes.open) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.pooled) {
        if (!this.flushPooled()) return; // every queued device in flight: its batch's answer schedules again
      } else if (!this.readyFor(this.nextDevices())) {
        return void this.readFor(this.nextDevices, this.refuseNext).then(() => this.schedule());
      } else this.flush();
      if (this.queue.length > 0) this.schedule();
    });
  }

  /** One batch (SQLite): processed and stored in one synchronous transaction. */
  private flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue.length > BATCH ? this.queue.splice(0, BATCH) : this.queue.splice(0);
    const out = outcome();
    const known = () => readAhead(this.ctx.store.sql, batch, this.latestOf(batch.map((b) => b.deviceId)));
    const work = () => this.compute(batch, out, known, this.storeQueue, this.writes, this.cache.fresh());
    commitBatch(this.ctx.store.sql, work, (err) => this.answer(batch, out, err));
  }

  /**
   * A batch on PostgreSQL's pool (pooledBatches.ts), of devices with none in flight: read ahead on the pool,
   * computed in memory, written as one statement. False when every queued report's device is in flight.
   */
  private flushPooled(): boolean {
    const { ingest, lanes } = this.pooled!;
    const batch = lanes.take(this.queue, BATCH);
    if (!batch.length) return false;
    const out = outcome();
    const devices = new Set(batch.map((b) => b.deviceId));
    this.waits.started(batch);
    const compute = async (rows: BatchRows) => {
      const { known, queued } = await readPooled(this.ctx.store.sql, ingest, batch, devices, rows, {
        fresh: () => this.cache.freshAsync(),
        loadStates: (ids) => this.loadStatesAsync(ids),
        latest: (id) => this.states.get(id)?.last,
        queuedDevices: this.queuedDevices,
        epoch: () => this.queuedEpoch,
      });
      let fixes = known; // on the pool again if another process changed a latest (adoptRemote): storedAt never reads
      while (!this.readyFor(devices)) {
        await this.cache.freshAsync().then(() => this.loadLatestAsync(devices));
        fixes = await readAheadAsync(this.ctx.store.sql, batch, (id) => this.states.get(id)?.last);
      }
      this.compute(batch, out, () => fixes, queued, rows, this.cache);
    };
    const answer = (err: unknown) => {
      this.waits.answered(batch);
      this.answer(batch, out, err);
      if (err) for (const q of lanes.drop(this.queue, devices)) q.resolve(REFUSED); // queued behind it
      if (this.queue.length > 0) this.schedule();
    };
    lanes.run(devices, compute, answer, () => this.publish([], newsOf(this.states, out.latest), out.events));
    return true;
  }

  /** Computes a batch into `writes` (`known` read ahead, queued commands from `queued`) on a fresh `cache`. */
  private compute(
    batch: Pending[],
    out: Outcome,
    known: () => StoredFixes,
    queued: QueuedSource,
    writes: IngestWrites,
    cache: LiveCache,
  ): void {
    const fixes = known();
    this.target = writes;
    this.activity.into = writes.activity ? (row) => writes.activity!(row) : null;
    try {
      for (const item of batch) {
        try {
          out.results.push(this.processOne(item, cache, out, fixes, queued));
        } catch (err) {
          if (isDatabaseUnavailable(err)) throw err; // the whole batch fails: nothing of it is stored
          this.ctx.log.error({ err }, 'position processing failed');
          out.results.push(FAILED);
        }
      }
      this.writeStates(out.changedDevices, (row) => writes.deviceState(row)); // one row per device per batch
    } finally {
      this.target = this.writes;
      this.activity.into = null;
    }
  }

  /** Answers a batch's reports: stored (published, answered), or refused (REFUSED, its devices read again). */
  private answer(batch: Pending[], out: Outcome, err: unknown): void {
    if (err) {
      // the store refused the batch (a transaction fails as a whole): none of it acknowledged (REFUSED)
      this.ctx.log.error({ err }, 'position batch failed');
      this.forget(out.changedDevices);
      for (const id of out.dequeued) this.queuedDevices.add(id);
      for (const item of batch) item.resolve(REFUSED);
      return;
    }
    this.publish(out.changedDevices, out.latest, out.events);
    for (let i = 0; i < batch.length; i++) batch[i].resolve(out.results[i]);
    for (const call of out.handlerCalls) call();
  }

  /** What another server process stored (db/cluster.ts), to this process's socket clients. */
  async applyRemote(
    m: { devices: RemoteDeviceState[]; positions: number[]; events: number[] },
    watched: boolean,
  ): Promise<void> {
    await this.cache.freshAsync(); // on the pool (PostgreSQL): its devices' rows as stored
    const { latest, events } = await this.adoptRemote(
      m.devices,
      watched ? m.positions : [],
      watched ? m.events : [],
    );
    if (watched) this.publish(new Set(m.devices.map((d) => d[0])), latest, events, true);
  }

  private publish(
    changedDevices: Iterable<number>,
    latest: Position[],
    events: Event[],
    remote = false,
  ): void {
    const devices: Device[] = [];
    for (const id of changedDevices) {
      const dj = this.deviceJson(id);
      if (dj) devices.push(dj);
    }
    publishToListeners(this.ctx, this.listeners, { devices, latest, events }, remote);
  }

  private processOne(
    item: Pending,
    cache: LiveCache,
    out: Outcome,
    known: StoredFixes,
    queued: QueuedSource,
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
    // one position per device and fix time (issue #30): a resend is acknowledged and changes nothing; a report
    // without a fix of its own (outdated, the latest fix reused) is live only and its events name the stored one
    const stored = storedAt(this.sql, deviceId, fixMs, prev, known);
    if (stored && !p.outdated) return { ok: true, deviceId, position: stored, commands: [] };

    // the stages before storing (ingestStages.ts), in CONTRACT §7's order
    addDistance(prev, p, attrs);
    const inside = geofencesInside(cache, deviceId, p, fixMs);
    addMotion(cache, deviceId, p, attrs);
    addDriver(cache, deviceId, attrs);
    // computed attributes (after motion, before engine hours; may set speed, course, altitude, accuracy, valid)
    p = computeIncoming(this.ctx, cache.deviceComputed(deviceId), deviceId, p, attrs, now);
    const altitude = p.altitude ?? 0;
    addEngineHours(prev, attrs, deviceMs);

    // store
    const position: Position = {
      id: 0,
      attributes: attrs as Attributes,
      deviceId,
      protocol: p.protocol,
      serverTime: iso(now),
      deviceTime: iso(deviceMs),
      fixTime: iso(fixMs),
      valid: p.valid !== false,
      latitude: p.latitude,
      longitude: p.longitude,
      altitude,
      speed: p.speed ?? 0,
      course: p.course ?? 0,
      address: null,
      accuracy: p.accuracy ?? 0,
      network: (p.network as Record<string, unknown> | null | undefined) ?? null,
      geofenceIds: inside.length ? inside : null,
      outdated: !!p.outdated,
    };
    const id = stored ? stored.id : insertPosition(this.sql, this.target, position, known);
    if (typeof id !== 'number') return { ok: true, deviceId, position: id, commands: [] };
    position.id = id;
    if (!stored) this.stats.stored++;

    // events
    const add = (type: string, extra: Partial<Event> = {}, eventPosition: Position = position) => {
      out.events.push(this.storeEvent(type, deviceId, eventPosition, extra));
    };
    positionEvents({
      cache,
      deviceId,
      prev,
      position,
      inside,
      isLatest,
      state: st,
      liveEvents: this.liveEvents,
      add,
    });
    if (isLatest)
      this.activity.record(deviceId, prev, position, speedLimitOf(cache, deviceId, position, inside).limit);

    // status
    const wasOnline = st.status === 'online';
    st.status = 'online';
    st.lastUpdate = now;
    if (!wasOnline && this.statusEvents()) add('deviceOnline', { positionId: 0, eventTime: iso(now) });
    if (isLatest) {
      st.last = position;
      st.positionId = id;
      out.latest.push(position);
    }
    out.changedDevices.add(deviceId);

    // queued commands: one per report (an HTTP device can take a single answer)
    const commands: QueuedCommand[] = [];
    if (this.queuedDevices.has(deviceId)) {
      const q = queued.first(deviceId);
      if (q) {
        queued.take(q);
        out.dequeued.add(deviceId);
        const cmd = queuedFromRow(q);
        commands.push(cmd);
        add('queuedCommandSent', { positionId: 0, eventTime: iso(now), attributes: { type: cmd.type } });
        const handler = this.router.handler(cache.device(deviceId)?.uniqueId ?? '');
        if (handler)
          out.handlerCalls.push(
            () => void this.router.call(deviceId, handler, { ...cmd, description: null }),
          );
      }
      if (queued.none(deviceId)) this.queuedDevices.delete(deviceId);
    }
    return { ok: true, deviceId, position, commands };
  }

  /** Status events are on unless the server attribute `event.status.enable` is false. */
  private statusEvents(): boolean {
    const v = this.cache.serverAttrs['event.status.enable'];
    return !(v === false || v === 'false');
  }

  /** Inserts an event into the batch being computed (`target`) and returns its API form. */
  private storeEvent(
    type: string,
    deviceId: number,
    position: Position | null,
    extra: Partial<Event> = {},
  ): Event {
    const ev = eventRowOf(type, deviceId, position, extra);
    const id = this.target.event({ ...ev, eventTime: new Date(ev.eventTime).toISOString() });
    this.stats.events++;
    return eventFromRow({ ...ev, id } as EventDbRow);
  }

  /**
   * Stores events created outside the position pipeline (status sweep, command results, anchor, inactivity, QR) in
   * one transaction on the pool (inTransaction: PostgreSQL's write client, never a synchronous handle; issue #30,
   * session 34), all or none, then publishes them with the devices named (the cache read on the pool first).
   */
  async emitEvents(
    make: (tx: SqlDatabase) => Promise<Event[]>,
    changedDevices: number[] = [],
  ): Promise<Event[]> {
    const events = await inTransaction(this.ctx.store.sql, make);
    this.stats.events += events.length;
    await this.cache.freshAsync(); // publish's deviceJson then reads no store
    this.publish(changedDevices, [], events);
    return events;
  }

  /** Devices silent for statusTimeoutSeconds turn "unknown" (statusSweep.ts); one sweep at a time. */
  async sweep(now = Date.now()): Promise<void> {
    this.liveEvents.sweep(now);
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await sweepStatuses(this.states, now - this.ctx.config.statusTimeoutSeconds * 1000, {
        freshAsync: () => this.cache.freshAsync(),
        statusEvents: () => this.statusEvents(),
        emit: (make, devices) => this.emitEvents(make, devices),
        eventTime: iso(now),
      });
    } finally {
      this.sweeping = false;
    }
  }

  /** `to` becomes the device's latest position in memory if `from` still is (accumulators.ts). */
  replaceLatest(deviceId: number, from: Position, to: Position, publish: boolean): boolean {
    const st = this.states.get(deviceId);
    if (st?.last !== from) return false;
    st.last = to;
    if (publish) this.publish([deviceId], [to], []);
    return true;
  }
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
