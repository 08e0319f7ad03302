// What the live core keeps in memory per device (ingest.ts's LiveCore extends it): status, lastUpdate, the latest
// position (loaded from the store on first use), the overspeed flag and the motion tracker; and the answers built
// from it (the device with its live status, the latest position).
import type { RemoteDeviceState } from '../db/cluster.ts';
import type { SqlDatabase } from '../db/sql.ts';
import { eventsByIdsAsync } from '../db/repos/events.ts';
import { storedDeviceExists } from '../db/repos/ingest.ts';
import type { DeviceStateRow } from '../db/repos/ingestBatch.ts';
import { positionsByIds, positionsByIdsAsync } from '../db/repos/positions.ts';
import type { Device, Event, Position } from '@rastro/domain';
import type { Device as CachedDevice, LiveCache } from './cache.ts';
import {
  deviceJson,
  eventFromRow,
  positionFromRow,
  type EventDbRow,
  type LiveDeviceState,
  type PositionDbRow,
} from './json.ts';
import type { MotionTracker } from './motion.ts';

export interface DevState extends LiveDeviceState {
  last: Position | null;
  loaded: boolean;
  overspeed: boolean;
  tracker: MotionTracker<Position> | null;
}

export class DeviceStates {
  protected readonly states = new Map<number, DevState>();
  /** readFor's read in flight. */
  private reading: Promise<void> | null = null;
  /** Rows another process named, read ahead on the pool (readRemote), by the very id list of its message. */
  private readonly remoteRows = new WeakMap<readonly number[], Position[] | Event[]>();
  /** storedRows' last answer per device: the cached row it was made from, and the row with the live state. */
  private readonly rowsWithState = new Map<number, { base: CachedDevice; row: CachedDevice }>();

  constructor(
    readonly cache: LiveCache,
    private readonly db: SqlDatabase,
  ) {}

  /**
   * A report's device: from the cache at once when it is fresh and knows the device, else read on the pool
   * (findDeviceAsync: the main thread free), on both stores (issue #30, session 35: SQLite's ingestion no longer
   * reloads the cache synchronously on a miss).
   */
  protected resolveDevice(ref: {
    uniqueId?: string;
    deviceId?: number;
  }): number | undefined | Promise<number | undefined> {
    const id = this.cache.stale ? undefined : this.cachedDevice(ref);
    return id ?? this.findDeviceAsync(ref);
  }

  private cachedDevice(ref: { uniqueId?: string; deviceId?: number }): number | undefined {
    return ref.deviceId !== undefined
      ? this.cache.devices.has(ref.deviceId)
        ? ref.deviceId
        : undefined
      : this.cache.byUniqueId.get((ref.uniqueId ?? '').trim());
  }

  /**
   * findDevice without the main thread waiting (PostgreSQL: issue #30, session 32): the cache read again on the
   * pool if it is stale, and on a miss the device looked up there, the cache read again once if it is stored.
   */
  async findDeviceAsync(ref: { uniqueId?: string; deviceId?: number }): Promise<number | undefined> {
    await this.cache.freshAsync();
    const id = this.cachedDevice(ref);
    if (id !== undefined || !(await storedDeviceExists(this.db, ref))) return id;
    this.cache.invalidate();
    await this.cache.freshAsync();
    return this.cachedDevice(ref);
  }

  /**
   * Takes over the device states another server process stored (db/cluster.ts): status, last update and latest
   * position id as it sent them (the position itself is read again when needed); answers the positions and events
   * it named, read from the store, when asked for (someone here watches).
   */
  protected async adoptRemote(
    devices: RemoteDeviceState[],
    positionIds: number[],
    eventIds: number[],
  ): Promise<{ latest: Position[]; events: Event[] }> {
    // read ahead on the pool (readRemote); if that read failed, read again there (issue #30, session 34: no longer
    // on the synchronous store)
    const named = positionIds.length > 0 || eventIds.length > 0;
    if (named && !(this.remoteRows.has(positionIds) && this.remoteRows.has(eventIds)))
      await this.readRemote(positionIds, eventIds);
    for (const [id, status, lastUpdate, positionId] of devices) {
      const st = this.held(id); // held even if never seen here: the leader's status sweep covers every device
      st.status = status as DevState['status'];
      st.lastUpdate = lastUpdate === null ? null : new Date(lastUpdate);
      if (st.positionId !== positionId) {
        st.positionId = positionId;
        st.loaded = false;
        st.last = null;
        st.tracker = null;
      }
    }
    return {
      latest: (this.remoteRows.get(positionIds) ?? []) as Position[],
      events: (this.remoteRows.get(eventIds) ?? []) as Event[],
    };
  }

  /**
   * Reads the positions and events another process named on the read pool (issue #30, session 26), for adoptRemote
   * given these same lists: on PostgreSQL the main thread then never waits for them on the store connection, where
   * they would queue behind this process's own batch and its COMMIT. They were committed before the message was sent.
   */
  async readRemote(positionIds: readonly number[], eventIds: readonly number[]): Promise<void> {
    const [positions, events] = await Promise.all([
      positionsByIdsAsync(this.db, positionIds),
      eventsByIdsAsync(this.db, eventIds),
    ]);
    this.remoteRows.set(positionIds, (positions as PositionDbRow[]).map(positionFromRow));
    this.remoteRows.set(eventIds, (events as EventDbRow[]).map(eventFromRow));
  }

  /** The devices' live states as other processes take them over (adoptRemote). */
  remoteStates(ids: Iterable<number>): RemoteDeviceState[] {
    const out: RemoteDeviceState[] = [];
    for (const id of ids) {
      const st = this.states.get(id);
      if (st) out.push([id, st.status, st.lastUpdate ? st.lastUpdate.getTime() : null, st.positionId]);
    }
    return out;
  }

  /** Stores the devices' status, last update and latest position id (inside the batch's transaction). */
  protected writeStates(ids: Iterable<number>, update: (row: DeviceStateRow) => void): void {
    for (const id of ids) {
      const st = this.states.get(id)!;
      const lastUpdate = st.lastUpdate ? st.lastUpdate.toISOString() : null;
      update({ status: st.status, lastUpdate, positionId: st.positionId, id });
    }
  }

  /** Drops what memory holds of the devices (a batch that was not stored): read from the store again. */
  protected forget(ids: Iterable<number>): void {
    for (const id of ids) this.states.delete(id);
    this.cache.invalidate();
  }

  /**
   * The device as the API shows it, with its live status, from the cache as it is: never read again here (issue #30,
   * session 35); a caller that must see a change made just before awaits `cache.freshAsync()` first. While the store
   * cannot be read (PostgreSQL lost after a refused batch invalidated the cache) the cache's last rows serve.
   */
  deviceJson(id: number): Device | undefined {
    const d = this.cache.device(id);
    if (!d) return undefined;
    const st = this.states.get(id);
    return deviceJson(d, this.cache.deviceAttrs.get(id) ?? {}, st?.loaded ? st : undefined);
  }

  /**
   * The devices' rows as the store holds them, with the live state this process keeps (status, last update, latest
   * position id: what its batches write, or another process's it took over), for the device list (traccar/heldRows.ts);
   * the cache read again first if something changed. undefined: a device the cache does not know (yet). A row whose
   * cached row and state did not change is the same object as at the last call.
   */
  async storedRows(ids: readonly number[]): Promise<Array<CachedDevice | undefined>> {
    await this.cache.freshAsync();
    return ids.map((id) => {
      const d = this.cache.device(id);
      const st = this.states.get(id);
      if (!d || !st || st.status === null) {
        this.rowsWithState.delete(id);
        return d;
      }
      const lastUpdate = st.lastUpdate ? st.lastUpdate.toISOString() : null;
      const held = this.rowsWithState.get(id);
      if (
        held?.base === d &&
        held.row.status === st.status &&
        held.row.lastUpdate === lastUpdate &&
        held.row.positionId === st.positionId
      )
        return held.row;
      const row = { ...d, status: st.status, lastUpdate, positionId: st.positionId };
      this.rowsWithState.set(id, { base: d, row });
      return row;
    });
  }

  /** The device's state, made from its stored row on first use (the latest position not read yet). */
  private held(deviceId: number): DevState {
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
    return st;
  }

  /**
   * The device's state, its latest position in memory: loaded before (loadStates in a batch's transaction,
   * loadStatesAsync otherwise); never read from the store here (issue #30, session 35).
   */
  protected state(deviceId: number): DevState {
    const st = this.held(deviceId);
    if (!st.loaded && !st.positionId) st.loaded = true;
    if (!st.loaded) throw new Error(`device ${deviceId}: latest position not loaded`);
    return st;
  }

  /** Whether every one of the devices has its state in memory, latest position included (nothing to read). */
  private statesLoaded(ids: Iterable<number>): boolean {
    for (const id of ids) {
      const st = this.states.get(id);
      if (!st?.loaded && (st ? st.positionId : 1)) return false;
    }
    return true;
  }

  /**
   * Whether a batch of these devices finds all it reads before its transaction in memory: the cache fresh, their
   * latest positions loaded (SQLite's ingestion, issue #30, session 35: never a synchronous reload on the way).
   */
  protected readyFor(ids: Iterable<number>): boolean {
    return !this.cache.stale && this.statesLoaded(ids);
  }

  /**
   * What readyFor wants, read asynchronously (SQLite: on the connection's turn), one read at a time; `ids` asked
   * when it starts. A failed read is handed to `failed` once (its batch refused), never rejected.
   */
  protected readFor(ids: () => number[], failed: (err: unknown) => void): Promise<void> {
    this.reading ??= (async () => {
      try {
        await this.cache.freshAsync();
        await this.loadLatestAsync(ids());
      } catch (err) {
        failed(err);
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }

  /**
   * The devices' states loaded, their latest positions read in one statement for those not loaded yet (an ingestion
   * batch's devices before its loop, issue #30) instead of one read each at first use (state); answers a device's
   * latest position.
   */
  protected latestOf(ids: Iterable<number>): (deviceId: number) => Position | null | undefined {
    this.loadStates(ids);
    return (id) => this.states.get(id)?.last;
  }

  private loadStates(ids: Iterable<number>): void {
    const wanted = new Map<number, DevState>();
    for (const id of ids) {
      const st = this.held(id);
      if (st.loaded) continue;
      st.loaded = true;
      if (st.positionId) wanted.set(st.positionId, st);
    }
    if (!wanted.size) return;
    for (const row of positionsByIds(this.db, [...wanted.keys()]) as unknown as PositionDbRow[])
      wanted.get(row.id)!.last = positionFromRow(row);
  }

  /**
   * loadStates on the read pool (a pooled batch's devices before it starts, live/pooledBatches.ts): a state whose
   * latest position changed meanwhile (another process's, adoptRemote) stays unloaded, read when used.
   */
  protected async loadStatesAsync(ids: Iterable<number>): Promise<void> {
    const wanted = new Map<number, DevState>();
    for (const id of ids) {
      const st = this.held(id);
      if (st.loaded) continue;
      if (st.positionId) wanted.set(st.positionId, st);
      else st.loaded = true;
    }
    if (!wanted.size) return;
    const found = new Map<number, PositionDbRow>();
    for (const row of (await positionsByIdsAsync(this.db, [...wanted.keys()])) as unknown as PositionDbRow[])
      found.set(row.id, row);
    for (const [positionId, st] of wanted) {
      if (st.loaded || st.positionId !== positionId) continue;
      st.loaded = true;
      const row = found.get(positionId);
      if (row) st.last = positionFromRow(row);
    }
  }

  /**
   * The devices' latest positions into memory, read on the pool for those not there yet (issue #30, session 35), for
   * latestInMemory next; the cache is not read again (the caller's freshAsync, if it needs one).
   */
  async loadLatestAsync(ids: Iterable<number>): Promise<void> {
    const wanted = [...ids];
    while (!this.statesLoaded(wanted)) await this.loadStatesAsync(wanted);
  }

  /**
   * The device's latest position as memory holds it, read nowhere (the synchronous latestPosition, which read the
   * cache and the position through the synchronous store, is gone: issue #30, session 35): null for a device the
   * cache does not know or whose state loadLatestAsync has not loaded.
   */
  latestInMemory(deviceId: number): Position | null {
    if (!this.cache.device(deviceId)) return null;
    const st = this.states.get(deviceId);
    return st?.loaded ? st.last : null;
  }

  /**
   * The device's latest position without the main thread waiting (issue #30, session 34): the cache read on the
   * pool, the position too when memory does not hold it yet.
   */
  async latestPositionAsync(deviceId: number): Promise<Position | null> {
    if (!(await this.cache.freshAsync()).device(deviceId)) return null;
    await this.loadLatestAsync([deviceId]);
    return this.latestInMemory(deviceId);
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
    const st = this.states.get(deviceId);
    if (!st?.loaded || !st.last) return; // not in memory: the next batch reads it
    const attributes = { ...st.last.attributes };
    if (driverUniqueId) attributes.driverUniqueId = driverUniqueId;
    else delete attributes.driverUniqueId;
    st.last = { ...st.last, attributes };
  }

  isOnline(deviceId: number): boolean {
    return this.states.get(deviceId)?.status === 'online';
  }
}
