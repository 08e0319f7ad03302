// `/api/socket` (CONTRACT §5). Updates are batched per socket per tick: one message may carry several devices,
// positions and events (the Traccar web app accepts arrays). Each object is serialised once per tick however
// many sockets receive it. Recipients are read from the live cache, which reloads on permission changes.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Event } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { edge } from '../edge.ts';
import { userFromSocketRequest } from '../traccar/auth.ts';
import type { LiveCache } from './cache.ts';
import type { LiveCore } from './ingest.ts';
import { jsonText } from './json.ts';

export const KEEPALIVE_MS = 55_000;
export const SOCKET_TICK_MS = 100;
/** A client that cannot keep up (this much unsent data) is dropped; it reconnects and reloads. */
const MAX_BUFFERED = 32 * 1024 * 1024;
/**
 * Devices per slice of a connection's first message (every latest position: 5 MB at 10,000 devices); between
 * slices the event loop serves other requests (the page's files, trackers) instead of stalling for all of them.
 * Slices of 500 made the first message arrive up to 1 s later at 10,000 devices, each slice waiting behind the
 * device list's slices (session 13).
 */
export const SNAPSHOT_SLICE = 2000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Client {
  ws: WebSocket;
  userId: number;
  devices: Map<number, string>;
  positions: string[];
  events: string[];
  logs: string[];
  /** Alarms of the monitoring queue (issue #32, message `alarms`; Traccar's clients ignore the key). */
  alarms: string[];
  /** Devices gone from the user's sight (deleted or unlinked, issue #28; message `removedDevices`). */
  removed: Set<number>;
  /** The devices this socket was last told the user sees (the cache's own set: a reload builds new ones). */
  sight: ReadonlySet<number>;
  wantsLogs: boolean;
  /** The first message (latest positions) has been sent; batches wait for it, so they always come after it. */
  ready: boolean;
}

export interface LogRecord {
  host: string;
  protocol: string;
  uniqueId: string;
  deviceId: number;
  data: string;
}

export class SocketHub {
  private readonly byUser = new Map<number, Set<Client>>();
  private readonly dirty = new Set<Client>();
  private tick: NodeJS.Timeout | null = null;
  private keepaliveTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /** The sight changes pushed one at a time (pushSights). */
  private sightTurn: Promise<void> = Promise.resolve();
  /** Messages sent (diagnostics). */
  sent = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly live: LiveCore,
  ) {}

  start(): void {
    this.unsubscribe = this.live.subscribe({
      remote: true,
      devices: (devices) => {
        for (const d of devices) {
          const users = this.live.cache.usersOf(d.id);
          if (users.size === 0) continue;
          const text = JSON.stringify(d);
          for (const u of users)
            for (const c of this.byUser.get(u) ?? []) this.queue(c, 'devices', text, d.id);
        }
      },
      positions: (positions) => {
        for (const p of positions) {
          const users = this.live.cache.usersOf(p.deviceId);
          if (users.size === 0) continue;
          const text = jsonText(p);
          for (const u of users) for (const c of this.byUser.get(u) ?? []) this.queue(c, 'positions', text);
        }
      },
    });
    this.keepaliveTimer = setInterval(() => this.keepalive(), KEEPALIVE_MS);
    this.keepaliveTimer.unref();
    // A revoked share or a suspended account: its open sockets close now (a reconnect is refused).
    const signedOut = (userId: number) => this.closeUser(userId);
    this.ctx.bus.on('signedOut', signedOut);
    const previous = this.unsubscribe;
    this.unsubscribe = () => {
      previous?.();
      this.ctx.bus.off('signedOut', signedOut);
    };
  }

  /** Closes every socket of one user (4001: signed out by the server). */
  closeUser(userId: number): void {
    for (const c of this.byUser.get(userId) ?? []) c.ws.close(4001, 'signed out');
  }

  close(): void {
    this.unsubscribe?.();
    if (this.tick) clearTimeout(this.tick);
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    for (const set of this.byUser.values()) for (const c of set) c.ws.close(1001);
    this.byUser.clear();
  }

  get clientCount(): number {
    let n = 0;
    for (const s of this.byUser.values()) n += s.size;
    return n;
  }

  /** Sends `{}` to every socket (the 55 s keepalive). */
  keepalive(): void {
    for (const set of this.byUser.values()) for (const c of set) this.send(c, '{}');
  }

  /** An event that matched a web notification of `userId` (already carrying attributes.message). */
  pushEvent(userId: number, event: Event): void {
    const set = this.byUser.get(userId);
    if (!set?.size) return;
    const text = JSON.stringify(event);
    for (const c of set) this.queue(c, 'events', text);
  }

  /** Sockets that asked for logs (`{"logs":true}`). */
  private logClients = 0;

  get wantsLogs(): boolean {
    return this.logClients > 0;
  }

  /** Raw device messages for the admin Logs page (only to sockets that sent `{"logs":true}`). */
  pushLog(record: LogRecord): void {
    const users = this.live.cache.usersOf(record.deviceId);
    const text = JSON.stringify(record);
    for (const [userId, set] of this.byUser) {
      const admin = !!this.live.cache.users.get(userId)?.administrator;
      if (!admin && !users.has(userId)) continue;
      for (const c of set) if (c.wantsLogs) this.queue(c, 'logs', text);
    }
  }

  /**
   * A device created or changed through the API (live/deviceChanges.ts): its current JSON to every open socket of
   * the users who see it, as Traccar's `devices` update, so their lists and maps change without a reload.
   */
  pushDevice(device: { id: number }): void {
    const users = this.live.cache.usersOf(device.id);
    const text = JSON.stringify(device);
    for (const u of users)
      for (const c of this.byUser.get(u) ?? []) this.queue(c, 'devices', text, device.id);
  }

  /**
   * The devices each connected user sees now (the cache's own sets: a reload builds new ones, so no copy), in the
   * cache the caller made fresh (freshAsync: never a reload waited for here).
   */
  sight(cache: LiveCache): Map<number, ReadonlySet<number>> {
    const out = new Map<number, ReadonlySet<number>>();
    for (const [userId, set] of this.byUser) if (set.size) out.set(userId, cache.devicesOf(userId));
    return out;
  }

  /**
   * After a change of who sees which device (a deletion, a link, a group's link): a device out of a connected user's
   * sight goes to its sockets as `removedDevices`; one coming into sight as the device and its latest position.
   */
  async pushSightChanges(before: Map<number, ReadonlySet<number>>, cache: LiveCache): Promise<void> {
    const changes: Array<[Client, ReadonlySet<number>, ReadonlySet<number>]> = [];
    for (const [userId, was] of before) {
      const now = cache.devicesOf(userId);
      for (const c of this.byUser.get(userId) ?? []) changes.push([c, was, now]);
    }
    await this.pushSights(changes);
  }

  /**
   * Each socket's sight moved: the latest positions of the devices come into sight read first, on the pool where
   * memory lacks them (issue #30, session 35: never through the synchronous store), then pushed at once.
   */
  private pushSights(changes: Array<[Client, ReadonlySet<number>, ReadonlySet<number>]>): Promise<void> {
    const coming = new Set<number>();
    for (const [, was, now] of changes) for (const id of now) if (!was.has(id)) coming.add(id);
    // one after the other, in the order of the changes: a later sight is never overwritten by an earlier one
    const turn = this.sightTurn.then(async () => {
      if (coming.size) await this.live.loadLatestAsync(coming);
      for (const [c, was, now] of changes) this.pushSight(c, was, now);
    });
    this.sightTurn = turn.catch(() => undefined); // the caller hears of its failure; the next change still runs
    return turn;
  }

  /**
   * After another process changed who sees which device (db/cluster.ts, message 'devices'): each socket compared
   * with the sight it was last told of, as pushSightChanges does with the sight before a local write.
   */
  async pushSightChangesSinceSent(cache: LiveCache): Promise<void> {
    const changes: Array<[Client, ReadonlySet<number>, ReadonlySet<number>]> = [];
    for (const set of this.byUser.values())
      for (const c of set) changes.push([c, c.sight, cache.devicesOf(c.userId)]);
    await this.pushSights(changes);
  }

  private pushSight(c: Client, was: ReadonlySet<number>, now: ReadonlySet<number>): void {
    c.sight = now;
    if (now === was) return;
    for (const id of was) if (!now.has(id)) this.queueRemoved(c, id);
    for (const id of now) {
      if (was.has(id)) continue;
      const device = this.live.deviceJson(id);
      const position = this.live.latestInMemory(id); // loaded by pushSights
      if (device) this.queue(c, 'devices', JSON.stringify(device), id);
      if (position) this.queue(c, 'positions', jsonText(position));
    }
  }

  private queueRemoved(c: Client, id: number): void {
    c.devices.delete(id);
    c.removed.add(id);
    this.dirty.add(c);
    if (!this.tick) {
      this.tick = setTimeout(() => this.flush(), SOCKET_TICK_MS);
      this.tick.unref();
    }
  }

  /** A new or changed alarm of the monitoring queue (ext/alarms.ts): to whoever sees its device and administrators. */
  pushAlarm(deviceId: number, text: string): void {
    const users = this.live.cache.usersOf(deviceId);
    for (const [userId, set] of this.byUser) {
      if (!users.has(userId) && !this.live.cache.users.get(userId)?.administrator) continue;
      for (const c of set) this.queue(c, 'alarms', text);
    }
  }

  private queue(
    c: Client,
    key: 'devices' | 'positions' | 'events' | 'logs' | 'alarms',
    text: string,
    id = 0,
  ): void {
    if (key === 'devices') {
      c.devices.set(id, text);
      c.removed.delete(id);
    } else c[key].push(text);
    this.dirty.add(c);
    if (!this.tick) {
      this.tick = setTimeout(() => this.flush(), SOCKET_TICK_MS);
      this.tick.unref();
    }
  }

  /** Sends every pending batch now. */
  flush(): void {
    this.tick = null;
    for (const c of this.dirty) {
      if (!c.ready) continue; // sendSnapshot flushes it once the first message is out
      const parts: string[] = [];
      if (c.devices.size) parts.push(`"devices":[${[...c.devices.values()].join(',')}]`);
      if (c.positions.length) parts.push(`"positions":[${c.positions.join(',')}]`);
      if (c.events.length) parts.push(`"events":[${c.events.join(',')}]`);
      if (c.logs.length) parts.push(`"logs":[${c.logs.join(',')}]`);
      if (c.alarms.length) parts.push(`"alarms":[${c.alarms.join(',')}]`);
      if (c.removed.size) parts.push(`"removedDevices":[${[...c.removed].join(',')}]`);
      c.alarms = [];
      c.removed.clear();
      c.devices.clear();
      c.positions = [];
      c.events = [];
      c.logs = [];
      if (parts.length) this.send(c, `{${parts.join(',')}}`);
    }
    this.dirty.clear();
  }

  private send(c: Client, text: string): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    if (c.ws.bufferedAmount > MAX_BUFFERED) {
      c.ws.terminate();
      return;
    }
    c.ws.send(text);
    this.sent++;
  }

  /** Reads the live cache again if it is stale, on the pool on PostgreSQL (the main thread free: issue #30). */
  async freshCache(): Promise<void> {
    while (this.live.cache.stale) await this.live.cache.freshAsync();
  }

  /** Attaches a socket whose cache freshCache() has just made fresh: its sight is read from memory, never reloaded. */
  attach(ws: WebSocket, userId: number): void {
    const c: Client = {
      ws,
      userId,
      devices: new Map(),
      positions: [],
      events: [],
      logs: [],
      alarms: [],
      removed: new Set(),
      sight: this.live.cache.devicesOf(userId),
      wantsLogs: false,
      ready: false,
    };
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(c);
    ws.on('close', () => {
      this.byUser.get(userId)?.delete(c);
      this.dirty.delete(c);
      if (c.wantsLogs) this.logClients--;
    });
    ws.on('message', (data) => {
      try {
        const msg: unknown = JSON.parse(String(data));
        if (msg && typeof msg === 'object' && 'logs' in msg) {
          const wants = (msg as { logs: unknown }).logs === true;
          if (wants !== c.wantsLogs) this.logClients += wants ? 1 : -1;
          c.wantsLogs = wants;
        }
      } catch {
        // anything else is ignored, as Traccar does
      }
    });
    void this.sendSnapshot(c).catch((err: unknown) => {
      this.ctx.log.error({ err }, 'socket first message failed');
      c.ws.close(1011);
    });
  }

  /**
   * On connect: the latest positions of every device visible to the user, read a slice at a time. Updates that
   * arrive meanwhile are queued and sent after it (a device read after its update is sent twice, never older).
   */
  private async sendSnapshot(c: Client): Promise<void> {
    const ids = [...c.sight];
    const positions: string[] = [];
    for (let i = 0; i < ids.length; i += SNAPSHOT_SLICE) {
      if (i > 0) await nextTurn();
      const slice = ids.slice(i, i + SNAPSHOT_SLICE);
      await this.live.loadLatestAsync(slice); // on the pool where memory lacks them (issue #30, session 35)
      if (c.ws.readyState !== c.ws.OPEN) return;
      for (let k = i; k < Math.min(ids.length, i + SNAPSHOT_SLICE); k++) {
        const p = this.live.latestInMemory(ids[k]);
        if (p) positions.push(jsonText(p));
      }
    }
    this.send(c, `{"positions":[${positions.join(',')}]}`);
    c.ready = true;
    const pending = c.positions.length || c.events.length || c.logs.length || c.alarms.length;
    if (pending || c.devices.size || c.removed.size) {
      this.dirty.add(c);
      this.tick ??= setTimeout(() => this.flush(), SOCKET_TICK_MS);
      this.tick.unref();
    }
  }
}

export async function registerSocket(app: FastifyInstance, ctx: AppContext, hub: SocketHub): Promise<void> {
  app.get(
    '/api/socket',
    {
      // the WebSocket upgrade: no body or query to parse; its own preValidation answers 401 (docs/security.md)
      ...edge({ need: 'exempt', exempt: 'upgrade' }),
      websocket: true,
      preValidation: async (req, reply) => {
        const user = await userFromSocketRequest(ctx, req);
        if (!user) {
          await reply
            .status(401)
            .type('text/plain; charset=utf-8')
            .send('WebApplicationException: Unauthorized');
          return;
        }
        (req as unknown as { liveUserId: number }).liveUserId = user.id;
        await hub.freshCache(); // the new socket's sight, read on the pool (PostgreSQL) before it attaches
      },
    },
    (socket, req) => {
      hub.attach(socket, (req as unknown as { liveUserId: number }).liveUserId);
    },
  );
}
