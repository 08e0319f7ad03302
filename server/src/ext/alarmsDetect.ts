// Detection of the monitoring center's alarms (issue #32, docs/monitoring.md): the domain's rules (alarmRules.ts)
// run on every position that became its device's latest, as the live core publishes them, with the facts they need
// looked up in the live cache (speed limit, the "parked" calendar, QR check-in); anchor exits come from the anchor's
// alarm event. Signal lost while moving is a periodic job of the leader process, over the devices' latest positions
// in the store (so it sees what every process received). Raised alarms go to the store (folded there) and to
// `onAlarm`, which pushes them to the sockets. Nothing here waits on the main thread (issue #30, session 33): the
// live cache is read with freshAsync and the store asynchronously, each batch's alarms in one inTransaction; the
// batches run one after the other in the order the live core published them (`queue`), so each device's track
// state sees its positions in order.
import {
  alarmSettingsFrom,
  anchorExitAlarm,
  deviceAlarmsOn,
  deviceQrDriverId,
  detectAlarms,
  KNOT_TO_KMH,
  emptyAlarmState,
  nsKey,
  qrCheckinEnabled,
  qrEnabledDevice,
  signalLostAlarm,
  type AlarmContext,
  type AlarmPoint,
  type AlarmSettings,
  type AlarmTrackState,
  type Attributes,
  type Event,
  type Position,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import type { AlarmsRepo, RaisedAlarm } from '../db/repos/alarms.ts';
import { inTransaction } from '../db/repos/query.ts';
import type { LiveCache } from '../live/cache.ts';
import type { LiveCore } from '../live/ingest.ts';
import { speedLimitOf } from '../live/ingestStages.ts';

/** How often the leader looks for devices that went silent while moving. */
export const SIGNAL_LOST_CHECK_MS = 30_000;

const bool = (v: unknown): boolean | undefined =>
  v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;

/** What the rules read of a stored position. */
export function alarmPoint(p: Position): AlarmPoint {
  const accuracy = Number(p.accuracy);
  return {
    time: Date.parse(p.fixTime),
    latitude: p.latitude,
    longitude: p.longitude,
    speed: p.speed,
    ignition: bool(p.attributes.ignition),
    alarm: typeof p.attributes.alarm === 'string' ? p.attributes.alarm : undefined,
    valid: p.valid,
    accuracy: Number.isFinite(accuracy) ? accuracy : 0,
  };
}

export class AlarmDetector {
  private readonly states = new Map<number, AlarmTrackState>();
  private timer: NodeJS.Timeout | null = null;
  private off: (() => void) | null = null;
  private readonly ns: string;
  private readonly calendarKey: string;
  /** The detection work in order: each published batch (and signal-lost check) runs once the previous one ended. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly live: LiveCore,
    private readonly repo: AlarmsRepo,
    private readonly onAlarm: (id: number, deviceId: number) => void,
  ) {
    this.ns = ctx.config.ns;
    this.calendarKey = nsKey(this.ns, 'alarms.parkedCalendarId');
  }

  start(): void {
    this.off = this.live.subscribe({
      positions: (ps) => this.later('alarm detection failed', () => this.onPositions(ps)),
      events: (es) => this.later('alarm detection failed', () => this.onEvents(es)),
    });
    const tick = () => {
      if (!this.ctx.cluster.isLeader()) return;
      this.later('signal-lost check failed', () => this.checkSignalLost(Date.now()));
    };
    this.timer = setInterval(tick, SIGNAL_LOST_CHECK_MS);
    this.timer.unref();
  }

  /** Queues `work` after the detection already queued; its failure is logged (the next work still runs). */
  private later(failure: string, work: () => Promise<unknown>): void {
    this.queue = this.queue.then(work).then(
      () => undefined,
      (err: unknown) => this.ctx.log.error({ err }, failure),
    );
  }

  /** Resolves once the detection queued so far has ended (stored and announced, or logged as failed). */
  settled(): Promise<void> {
    return this.queue;
  }

  stop(): void {
    this.off?.();
    if (this.timer) clearInterval(this.timer);
  }

  private settings(cache: LiveCache): AlarmSettings {
    return alarmSettingsFrom(cache.serverAttrs, this.ns);
  }

  /** The facts of one position the rules cannot know (`qr`: QR check-in is on for the server). */
  private contextOf(
    cache: LiveCache,
    p: Position,
    s: AlarmSettings,
    qr: boolean,
    time: number,
  ): AlarmContext {
    const attrs = (cache.deviceAttrs.get(p.deviceId) ?? {}) as Attributes;
    const calendar = Number(cache.deviceSetting(p.deviceId, this.calendarKey) ?? 0);
    const calendarId = calendar > 0 ? calendar : s.parkedCalendarId;
    return {
      speedLimit: speedLimitOf(cache, p.deviceId, p, p.geofenceIds ?? []).limit,
      inParkedWindow: calendarId > 0 && cache.calendarActive(calendarId, time),
      qrDriverRequired: qr && qrEnabledDevice(attrs, this.ns),
      driverCheckedIn: qr && deviceQrDriverId(attrs) !== null,
    };
  }

  /** Runs the rules on the newest positions of a batch; stores and announces what they raise. */
  async onPositions(positions: readonly Position[]): Promise<void> {
    const cache = await this.live.cache.freshAsync();
    const s = this.settings(cache);
    if (!s.enabled) return;
    const qr = qrCheckinEnabled(cache.serverAttrs as Attributes, this.ns);
    const raised: RaisedAlarm[] = [];
    for (const p of positions) {
      if (!deviceAlarmsOn(s, cache.deviceAttrs.get(p.deviceId), this.ns)) continue;
      const point = alarmPoint(p);
      const r = detectAlarms(
        this.states.get(p.deviceId) ?? emptyAlarmState(),
        point,
        s,
        this.contextOf(cache, p, s, qr, point.time),
      );
      this.states.set(p.deviceId, r.state);
      for (const a of r.alarms)
        raised.push({
          deviceId: p.deviceId,
          type: a.type,
          detail: a.detail,
          positionId: p.id,
          time: p.fixTime,
        });
    }
    await this.store(raised);
  }

  /** The anchor's alarm events (live/anchor.ts) become anchorExit alarms. */
  async onEvents(events: readonly Event[]): Promise<void> {
    const raised: RaisedAlarm[] = [];
    for (const e of events) {
      if (e.type !== 'alarm') continue;
      const a = anchorExitAlarm(e.attributes as Record<string, unknown>);
      if (a) raised.push({ deviceId: e.deviceId, ...a, positionId: e.positionId, time: e.eventTime });
    }
    if (!raised.length) return;
    const cache = await this.live.cache.freshAsync();
    const s = this.settings(cache);
    await this.store(
      raised.filter(
        (a) =>
          !s.disabledTypes.includes(a.type) && deviceAlarmsOn(s, cache.deviceAttrs.get(a.deviceId), this.ns),
      ),
    );
  }

  /**
   * Devices whose latest position was moving and that have not reported for signalLostMinutes: one alarm per such
   * last report (the leader runs it; tests call it with their own clock).
   */
  async checkSignalLost(now: number): Promise<number> {
    const cache = await this.live.cache.freshAsync();
    const s = this.settings(cache);
    if (!s.enabled || s.disabledTypes.includes('signalLost')) return 0;
    const before = new Date(now - s.signalLostMinutes * 60_000).toISOString();
    const raised: RaisedAlarm[] = [];
    for (const r of await this.repo.silentDevices(before, s.movingSpeed / KNOT_TO_KMH)) {
      if (!deviceAlarmsOn(s, cache.deviceAttrs.get(r.deviceId), this.ns)) continue;
      const a = signalLostAlarm({ speed: r.speed, receivedAt: Date.parse(r.serverTime) }, now, s);
      if (!a || (await this.repo.hasForPosition(r.deviceId, 'signalLost', r.positionId))) continue;
      raised.push({
        deviceId: r.deviceId,
        ...a,
        positionId: r.positionId,
        time: new Date(now).toISOString(),
      });
    }
    await this.store(raised);
    return raised.length;
  }

  /**
   * Stores a batch's alarms in one transaction (one commit, however many; a failure half way stores none of them),
   * then announces them.
   */
  private async store(raised: readonly RaisedAlarm[]): Promise<void> {
    if (!raised.length) return;
    let stored: Array<{ id: number; deviceId: number }> = [];
    try {
      stored = await inTransaction(this.ctx.store.sql, async (tx) => {
        const out: Array<{ id: number; deviceId: number }> = [];
        for (const a of raised) out.push({ id: (await this.repo.raise(a, tx)).id, deviceId: a.deviceId });
        return out;
      });
    } catch (err) {
      this.ctx.log.error({ err, alarms: raised.length }, 'alarms not stored');
    }
    for (const s of stored) if (s.id) this.onAlarm(s.id, s.deviceId);
  }
}
