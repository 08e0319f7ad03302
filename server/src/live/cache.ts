// In-memory snapshot of the configuration the live pipeline reads for every position: devices, groups,
// geofences, notifications, maintenances, links, users and server attributes. Reloaded lazily (one pass over a handful of
// tables) after anything may have changed it: an API write, a 'permissions' or 'device' bus signal, or an
// explicit invalidate(). A write that changed only some devices' rows and links (a device created or edited through
// the API) reads those alone again (invalidateDevices: at 10,000 devices the whole reload held each creation ~100 ms,
// session 46). Per-position work then never touches SQL for configuration.
import type { Selectable } from 'kysely';
import { parseArea, type GeoArea } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import {
  devicesSnapshot,
  devicesSnapshotAsync,
  liveSnapshot,
  liveSnapshotAsync,
  type DevicesSnapshot,
  type LiveSnapshot,
} from '../db/repos/snapshot.ts';
import { eventsActive, parseCalendar, type VEvent } from './calendar.ts';
import { sortByPriority, type ComputedAttribute } from './computed/apply.ts';
import type {
  DeviceRow,
  GeofenceRow,
  GroupRow,
  MaintenanceRow,
  NotificationRow,
  UserRow,
} from '../db/schema.ts';

export type Device = Selectable<DeviceRow>;
export type Group = Selectable<GroupRow>;
export type User = Selectable<UserRow>;
export type Maintenance = Selectable<MaintenanceRow>;
export type NotificationConf = Selectable<NotificationRow> & { attrs: Record<string, unknown> };
export interface GeofenceConf extends Selectable<GeofenceRow> {
  shape: GeoArea | null;
  attrs: Record<string, unknown>;
}

/** Group hierarchy depth used for permission and attribute expansion (CONTRACT §3 Group). */
const GROUP_DEPTH = 3;

export function parseJson(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

interface Link {
  ownerType: string;
  ownerId: number;
  propertyType: string;
  propertyId: number;
}

export class LiveCache {
  private dirty = true;
  /** Devices whose rows and links alone changed since the last read (invalidateDevices); empty when `dirty`. */
  private readonly staleDevices = new Set<number>();
  devices = new Map<number, Device>();
  deviceAttrs = new Map<number, Record<string, unknown>>();
  byUniqueId = new Map<string, number>();
  groups = new Map<number, Group>();
  groupAttrs = new Map<number, Record<string, unknown>>();
  geofences = new Map<number, GeofenceConf>();
  notifications = new Map<number, NotificationConf>();
  /** Every maintenance by id (events/maintenance.ts picks a device's through the links). */
  maintenances = new Map<number, Maintenance>();
  users = new Map<number, User>();
  userAttrs = new Map<number, Record<string, unknown>>();
  serverAttrs: Record<string, unknown> = {};
  server: Record<string, unknown> = {};
  /** owner "type:id" → property type → ids */
  private links = new Map<string, Map<string, number[]>>();
  /** property "type:id" → owner type → ids */
  private reverse = new Map<string, Map<string, number[]>>();
  private deviceUsers = new Map<number, Set<number>>();
  private geofencesByDevice = new Map<number, GeofenceConf[]>();
  private calendars = new Map<number, VEvent[]>();
  private userDevices = new Map<number, Set<number>>();
  computed = new Map<number, ComputedAttribute>();
  private computedByDevice = new Map<number, ComputedAttribute[]>();

  /** Moves at every invalidate(): a reload read on the pool meanwhile is not kept. */
  private epoch = 0;
  /** The reload being read on the pool (freshAsync). */
  private loading: Promise<void> | null = null;

  constructor(private readonly ctx: AppContext) {}

  invalidate(): void {
    this.dirty = true;
    this.staleDevices.clear();
    this.epoch++;
  }

  /**
   * Only these devices' rows and the links naming them changed (nothing else: not a group, user or geofence): the
   * next fresh() or freshAsync() reads them alone again, unless the whole cache is to be read anyway.
   */
  invalidateDevices(ids: readonly number[]): void {
    if (!this.dirty) for (const id of ids) this.staleDevices.add(id);
    this.epoch++;
  }

  /** Whether the next fresh() or freshAsync() reads the store again (something changed since the last read). */
  get stale(): boolean {
    return this.dirty || this.staleDevices.size > 0;
  }

  /**
   * The cache, read again first if it is stale, synchronously: SQLite's batch fast path only (flushNow). On
   * PostgreSQL a stale cache throws (liveSnapshot refuses it: no statement through the synchronous handle, issue #30
   * session 36); code that may await uses freshAsync().
   */
  fresh(): this {
    if (this.dirty) this.load();
    else if (this.staleDevices.size) {
      const ids = [...this.staleDevices];
      this.applyDevices(ids, devicesSnapshot(this.ctx.store.sql, ids));
    }
    return this;
  }

  /**
   * fresh() without the main thread waiting (PostgreSQL's pooled batches, issue #30): every table read on the pool,
   * then put in place in one go, never half; kept only if nothing invalidated the cache (nor reloaded it) while it
   * was read, else read again. Resolves once the cache is fresh.
   */
  async freshAsync(): Promise<this> {
    while (this.stale) {
      if (!this.loading) {
        const epoch = this.epoch;
        const sql = this.ctx.store.sql;
        const ids = this.dirty ? null : [...this.staleDevices];
        const read = ids
          ? devicesSnapshotAsync(sql, ids).then((stored) => {
              if (!this.dirty && epoch === this.epoch) this.applyDevices(ids, stored);
            })
          : liveSnapshotAsync(sql).then((stored) => {
              if (this.dirty && epoch === this.epoch) this.apply(stored);
            });
        this.loading = read.finally(() => {
          this.loading = null;
        });
      }
      await this.loading;
    }
    return this;
  }

  private load(): void {
    this.apply(liveSnapshot(this.ctx.store.sql));
  }

  private apply(stored: LiveSnapshot): void {
    this.dirty = false;
    this.staleDevices.clear();
    this.devices.clear();
    this.deviceAttrs.clear();
    this.byUniqueId.clear();
    for (const d of stored.devices) {
      this.devices.set(d.id, d);
      this.deviceAttrs.set(d.id, parseJson(d.attributes));
      this.byUniqueId.set(d.uniqueId, d.id);
    }
    this.groups.clear();
    this.groupAttrs.clear();
    for (const g of stored.groups) {
      this.groups.set(g.id, g);
      this.groupAttrs.set(g.id, parseJson(g.attributes));
    }
    this.geofences.clear();
    this.geofencesByDevice.clear();
    for (const g of stored.geofences) {
      this.geofences.set(g.id, { ...g, shape: parseArea(g.area), attrs: parseJson(g.attributes) });
    }
    this.calendars.clear();
    for (const c of stored.calendars) {
      this.calendars.set(c.id, parseCalendar(c.data));
    }
    this.computed.clear();
    this.computedByDevice.clear();
    for (const a of stored.computed as ComputedAttribute[]) {
      this.computed.set(a.id, a);
    }
    this.notifications.clear();
    for (const n of stored.notifications) {
      this.notifications.set(n.id, { ...n, attrs: parseJson(n.attributes) });
    }
    this.maintenances.clear();
    for (const m of stored.maintenances) this.maintenances.set(m.id, m);
    this.users.clear();
    this.userAttrs.clear();
    for (const u of stored.users) {
      this.users.set(u.id, u);
      this.userAttrs.set(u.id, parseJson(u.attributes));
    }
    const server = (stored.server ?? {}) as Record<string, unknown>;
    this.server = server;
    this.serverAttrs = parseJson(server.attributes as string | undefined);
    this.links.clear();
    this.reverse.clear();
    for (const l of stored.links as Link[]) this.addLink(l);
    this.buildVisibility();
  }

  /**
   * Some devices read again (invalidateDevices): each one's row and every link naming it replaced by what was read
   * (a device not read is gone), the rest kept; who sees which device is worked out again, as apply() does.
   */
  private applyDevices(ids: readonly number[], stored: DevicesSnapshot): void {
    const read = new Set(stored.devices.map((d) => d.id));
    for (const id of ids) {
      this.staleDevices.delete(id);
      const old = this.devices.get(id);
      if (old && this.byUniqueId.get(old.uniqueId) === id) this.byUniqueId.delete(old.uniqueId);
      // one read again keeps its place in the map
      if (!read.has(id)) this.devices.delete(id);
      this.deviceAttrs.delete(id);
      this.geofencesByDevice.delete(id);
      this.computedByDevice.delete(id);
      this.dropLinks(this.links, this.reverse, `device:${id}`, 'device', id);
      this.dropLinks(this.reverse, this.links, `device:${id}`, 'device', id);
    }
    for (const d of stored.devices) {
      this.devices.set(d.id, d);
      this.deviceAttrs.set(d.id, parseJson(d.attributes));
      this.byUniqueId.set(d.uniqueId, d.id);
    }
    for (const l of stored.links as Link[]) this.addLink(l);
    this.buildVisibility();
  }

  private addLink(l: Link): void {
    push(this.links, `${l.ownerType}:${l.ownerId}`, l.propertyType, l.propertyId);
    push(this.reverse, `${l.propertyType}:${l.propertyId}`, l.ownerType, l.ownerId);
  }

  /** Forgets `key`'s entries in `from` and their mirror in `other` (where they name `type` `id`). */
  private dropLinks(
    from: Map<string, Map<string, number[]>>,
    other: Map<string, Map<string, number[]>>,
    key: string,
    type: string,
    id: number,
  ): void {
    const entries = from.get(key);
    if (!entries) return;
    from.delete(key);
    for (const [otherType, otherIds] of entries)
      for (const otherId of otherIds) {
        const list = other.get(`${otherType}:${otherId}`)?.get(type);
        const at = list ? list.indexOf(id) : -1;
        if (list && at >= 0) list.splice(at, 1);
      }
  }

  private buildVisibility(): void {
    this.deviceUsers.clear();
    this.userDevices.clear();
    // devices of each group including sub-groups up to GROUP_DEPTH levels below
    const groupDevices = new Map<number, number[]>();
    for (const d of this.devices.values()) {
      for (const g of this.groupChain(d.groupId)) {
        let arr = groupDevices.get(g);
        if (!arr) groupDevices.set(g, (arr = []));
        arr.push(d.id);
      }
    }
    for (const u of this.users.values()) {
      const set = new Set<number>(this.linked('user', u.id, 'device'));
      for (const g of this.linked('user', u.id, 'group'))
        for (const d of groupDevices.get(g) ?? []) set.add(d);
      for (const d of [...set]) if (!this.devices.has(d)) set.delete(d);
      this.userDevices.set(u.id, set);
      for (const d of set) {
        let s = this.deviceUsers.get(d);
        if (!s) this.deviceUsers.set(d, (s = new Set()));
        s.add(u.id);
      }
    }
  }

  /** The group and its ancestors (the group itself first), at most GROUP_DEPTH entries, cycle-safe. */
  groupChain(groupId: number): number[] {
    const chain: number[] = [];
    let g = groupId;
    while (g && chain.length < GROUP_DEPTH && !chain.includes(g)) {
      chain.push(g);
      g = this.groups.get(g)?.groupId ?? 0;
    }
    return chain;
  }

  linked(ownerType: string, ownerId: number, propertyType: string): number[] {
    return this.links.get(`${ownerType}:${ownerId}`)?.get(propertyType) ?? [];
  }

  owners(propertyType: string, propertyId: number, ownerType: string): number[] {
    return this.reverse.get(`${propertyType}:${propertyId}`)?.get(ownerType) ?? [];
  }

  device(id: number): Device | undefined {
    return this.devices.get(id);
  }

  /** Users linked to the device directly or through its groups (socket recipients, CONTRACT §5). */
  usersOf(deviceId: number): Set<number> {
    return this.deviceUsers.get(deviceId) ?? EMPTY;
  }

  /** Devices the user is linked to directly or through groups (admins too: their default lists). */
  devicesOf(userId: number): Set<number> {
    return this.userDevices.get(userId) ?? EMPTY;
  }

  canSee(user: Pick<User, 'id' | 'administrator'>, deviceId: number): boolean {
    if (!this.devices.has(deviceId)) return false;
    return !!user.administrator || this.devicesOf(user.id).has(deviceId);
  }

  /** Device → group chain → server lookup of a device-scoped setting (CONTRACT §7). */
  deviceSetting(deviceId: number, key: string): unknown {
    const own = this.deviceAttrs.get(deviceId)?.[key];
    if (own !== undefined && own !== null && own !== '') return own;
    const d = this.devices.get(deviceId);
    for (const g of d ? this.groupChain(d.groupId) : []) {
      const v = this.groupAttrs.get(g)?.[key];
      if (v !== undefined && v !== null && v !== '') return v;
    }
    const s = this.serverAttrs[key];
    return s === undefined || s === null || s === '' ? undefined : s;
  }

  deviceNumber(deviceId: number, key: string): number | undefined {
    const v = Number(this.deviceSetting(deviceId, key));
    return Number.isFinite(v) && this.deviceSetting(deviceId, key) !== undefined ? v : undefined;
  }

  /** Geofences linked to the device or its group chain (not user-linked ones). */
  deviceGeofences(deviceId: number): GeofenceConf[] {
    let out = this.geofencesByDevice.get(deviceId);
    if (!out) {
      out = this.computeDeviceGeofences(deviceId);
      this.geofencesByDevice.set(deviceId, out);
    }
    return out;
  }

  private computeDeviceGeofences(deviceId: number): GeofenceConf[] {
    const d = this.devices.get(deviceId);
    if (!d) return [];
    const ids = new Set(this.linked('device', deviceId, 'geofence'));
    for (const g of this.groupChain(d.groupId))
      for (const id of this.linked('group', g, 'geofence')) ids.add(id);
    const out: GeofenceConf[] = [];
    for (const id of ids) {
      const g = this.geofences.get(id);
      if (g?.shape) out.push(g);
    }
    return out;
  }

  /** Computed attributes linked to the device or its group chain, higher priority first (ties by id). */
  deviceComputed(deviceId: number): ComputedAttribute[] {
    let out = this.computedByDevice.get(deviceId);
    if (!out) {
      const d = this.devices.get(deviceId);
      const ids = new Set(d ? this.linked('device', deviceId, 'attribute') : []);
      for (const g of d ? this.groupChain(d.groupId) : []) {
        for (const id of this.linked('group', g, 'attribute')) ids.add(id);
      }
      out = sortByPriority([...ids].flatMap((id) => this.computed.get(id) ?? []));
      this.computedByDevice.set(deviceId, out);
    }
    return out;
  }

  /** Notifications that apply to a device (CONTRACT §9): linked to it or its groups, or `always` of its users. */
  deviceNotifications(deviceId: number): NotificationConf[] {
    const d = this.devices.get(deviceId);
    if (!d) return [];
    const ids = new Set(this.linked('device', deviceId, 'notification'));
    for (const g of this.groupChain(d.groupId)) {
      for (const id of this.linked('group', g, 'notification')) ids.add(id);
    }
    for (const u of this.usersOf(deviceId)) {
      for (const id of this.linked('user', u, 'notification')) {
        if (this.notifications.get(id)?.always) ids.add(id);
      }
    }
    const out: NotificationConf[] = [];
    for (const id of ids) {
      const n = this.notifications.get(id);
      if (n) out.push(n);
    }
    return out;
  }

  /** Whether calendar `id` covers the time (a missing calendar covers nothing). */
  calendarActive(id: number, time: number): boolean {
    const events = this.calendars.get(id);
    return !!events && eventsActive(events, time);
  }

  managedUsers(userId: number): number[] {
    return this.linked('user', userId, 'managedUser');
  }
}

const EMPTY: Set<number> = new Set();

function push(map: Map<string, Map<string, number[]>>, key: string, type: string, id: number): void {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  let arr = inner.get(type);
  if (!arr) inner.set(type, (arr = []));
  arr.push(id);
}
