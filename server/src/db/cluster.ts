// Several server processes on one PostgreSQL database behave as one server (docs/deployment.md):
// - what one process changes reaches the others through PostgreSQL's LISTEN/NOTIFY (a channel per schema):
//   new positions, events and device states for their socket clients, "configuration changed" for their caches,
//   sessions ended by the server;
// - background jobs (billing, scheduled reports, the status sweep, the demo fleet, housekeeping) run in one process,
//   the leader: the one holding a session advisory lock on a connection of its own (issue #30, session 31: no
//   store query queues on it). When it stops or dies, or that connection is lost or stops answering, it stops
//   leading at once, the connection is closed, the lock is free and another process takes it within
//   LEADER_RETRY_MS (the one that lost it asks again on a new connection, in the background).
// On SQLite (one process) the local cluster is always the leader and sends nothing.
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';

/** A device's live state as another process stored it: id, status, last update (ms or null), latest position id. */
export type RemoteDeviceState = [number, string | null, number | null, number];

export type ClusterMessage =
  | { t: 'live'; devices: RemoteDeviceState[]; positions: number[]; events: number[] }
  /** Something the caches hold changed; `devices`: only these devices' rows and links (live/cache.ts). */
  | { t: 'changed'; devices?: number[] }
  | { t: 'signedOut'; userId: number }
  /** An alarm of the monitoring queue was raised or handled (ext/alarms.ts): sockets of the others get it too. */
  | { t: 'alarm'; id: number; deviceId: number }
  /**
   * Devices changed through the API (live/deviceChanges.ts, issue #28): the others push them to their sockets;
   * with `sight`, the write may have changed who sees which device, so each of their sockets is compared too.
   */
  | { t: 'devices'; ids: number[]; sight: boolean };

export interface Cluster {
  /** This process's id in messages. */
  readonly node: string;
  /** Whether this process runs the background jobs now. */
  isLeader(): boolean;
  /** Tells the other processes (nothing on SQLite). */
  publish(message: ClusterMessage): void;
  /** Messages from the other processes. */
  subscribe(listener: (message: ClusterMessage) => void): () => void;
  close(): Promise<void>;
}

export class LocalCluster implements Cluster {
  readonly node = randomUUID();
  isLeader(): boolean {
    return true;
  }
  publish(): void {}
  subscribe(): () => void {
    return () => undefined;
  }
  async close(): Promise<void> {}
}

const LEADER_RETRY_MS = 2000;
/** A leader whose lock connection does not confirm it is alive within this steps down (and drops it). */
const LEADER_CONFIRM_MS = 2000;
/** Takes the leader's lock on the lock's own connection (a session lock: it goes with that connection). */
const LEAD = 'SELECT pg_try_advisory_lock(hashtext($1)) AS ok';
/** NOTIFY payloads must stay under 8000 bytes; longer lists are split to fit. */
const MAX_PAYLOAD = 7000;

/** The connection a process holds (or asks for) the leader's lock on. */
interface LockConnection {
  sql: postgres.Sql;
  lost: boolean;
}

export class PgCluster implements Cluster {
  readonly node = randomUUID();
  private leader = false;
  private readonly listeners = new Set<(m: ClusterMessage) => void>();
  private channel = '';
  private lockKey = '';
  private listener: postgres.Sql | null = null;
  /** The leader lock's dedicated connection (issue #30): none of the store's queries queue on it. */
  private lock: LockConnection | null = null;
  /** A question about the lock is on its way (the next round waits for it). */
  private asking = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  /**
   * Joins the cluster: takes the leader lock if it is free (on a connection of its own, answered before this
   * resolves), listens to the others. The store itself is not used: nothing here waits on its connection.
   */
  static async start(url: string, onError: (err: unknown) => void): Promise<PgCluster> {
    const c = new PgCluster(url, onError);
    const lock = c.connect();
    const [{ s: schema }] = await lock.sql<Array<{ s: string }>>`SELECT current_schema() AS s`;
    c.channel = `rastro_${schema}`.replace(/[^a-z0-9_]/gi, '_').slice(0, 60);
    c.lockKey = `rastro-leader:${schema}`;
    await c.tryLead();
    // asked again in the background: a follower takes the lock once it is free, a leader confirms its connection
    c.timer = setInterval(() => void c.tryLead(), LEADER_RETRY_MS);
    c.timer.unref();
    await c.listen();
    return c;
  }

  /** False the moment the lock's connection is lost or stops answering (issue #30): the lock went with it. */
  isLeader(): boolean {
    return this.leader && !!this.lock && !this.lock.lost;
  }

  /** A new connection for the lock; its loss (closed, reset, terminated) is the leader's end at once. */
  private connect(): LockConnection {
    const c: LockConnection = { lost: false, sql: undefined as unknown as postgres.Sql };
    c.sql = postgres(this.url, {
      max: 1,
      max_lifetime: null, // never closed on purpose (postgres.js closes one after 30-60 min): the lock lives on it
      onnotice: () => undefined,
      fetch_types: false, // db/pool.ts says why
      connect_timeout: 10,
      keep_alive: 10,
      connection: { application_name: 'rastro-leader', statement_timeout: LEADER_CONFIRM_MS },
      onclose: () => this.lost(c),
    });
    this.lock = c;
    return c;
  }

  /** The lock's connection is gone (or stopped answering): no longer the leader; a new one at the next round. */
  private lost(c: LockConnection): void {
    if (c.lost) return;
    c.lost = true;
    if (this.lock === c) {
      this.leader = false;
      this.lock = null;
    }
    // closed at once: PostgreSQL then ends the session, and its lock is free for another process
    void c.sql.end({ timeout: 0 }).catch(() => undefined);
  }

  /**
   * Takes the lock, or (the leader) confirms that its connection still answers: a leader whose connection does not
   * answer within LEADER_CONFIRM_MS steps down and drops it, so that it never leads while another process may have
   * taken the lock its lost session released.
   */
  private async tryLead(): Promise<void> {
    if (this.closed || this.asking) return;
    this.asking = true;
    const c = this.lock && !this.lock.lost ? this.lock : this.connect();
    let timer: NodeJS.Timeout | undefined;
    try {
      const question = this.leader ? c.sql`SELECT 1 AS ok` : c.sql.unsafe(LEAD, [this.lockKey]);
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('the leader lock connection did not answer')),
          LEADER_CONFIRM_MS,
        );
      });
      const rows = (await Promise.race([question, late])) as unknown as Array<{ ok: unknown }>;
      if (this.closed || c.lost) return;
      if (!this.leader && (rows[0]?.ok === true || rows[0]?.ok === 't')) this.leader = true;
    } catch (err) {
      this.lost(c);
      if (!this.closed) this.onError(err);
    } finally {
      clearTimeout(timer);
      this.asking = false;
    }
  }

  private async listen(): Promise<void> {
    const client = postgres(this.url, {
      max: 1,
      onnotice: () => undefined,
      fetch_types: false, // db/pool.ts says why
      connection: { application_name: 'rastro-cluster' },
    });
    await client.listen(this.channel, (payload) => {
      let m: ClusterMessage & { node: string };
      try {
        m = JSON.parse(payload) as ClusterMessage & { node: string };
      } catch {
        return;
      }
      if (m.node === this.node) return;
      for (const l of this.listeners) {
        try {
          l(m);
        } catch (err) {
          this.onError(err);
        }
      }
    });
    this.listener = client;
  }

  publish(message: ClusterMessage): void {
    const client = this.listener;
    if (!client || this.closed) return;
    for (const part of split(message)) {
      client
        .notify(this.channel, JSON.stringify({ ...part, node: this.node }))
        .catch((err: unknown) => this.onError(err));
    }
  }

  subscribe(listener: (message: ClusterMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.listener;
    this.listener = null;
    if (client) await client.end({ timeout: 2 }).catch(() => undefined);
    // the leader lock goes with its connection
    const lock = this.lock;
    this.lock = null;
    this.leader = false;
    if (lock) {
      lock.lost = true;
      await lock.sql.end({ timeout: 2 }).catch(() => undefined);
    }
  }
}

function split(m: ClusterMessage): ClusterMessage[] {
  if (m.t !== 'live' || JSON.stringify(m).length <= MAX_PAYLOAD) return [m];
  const out: ClusterMessage[] = [];
  let part: Extract<ClusterMessage, { t: 'live' }> = { t: 'live', devices: [], positions: [], events: [] };
  let size = 60;
  const add = (key: 'devices' | 'positions' | 'events', item: RemoteDeviceState | number) => {
    const n = JSON.stringify(item).length + 1;
    if (size + n > MAX_PAYLOAD) {
      out.push(part);
      part = { t: 'live', devices: [], positions: [], events: [] };
      size = 60;
    }
    (part[key] as Array<typeof item>).push(item);
    size += n;
  };
  for (const d of m.devices) add('devices', d);
  for (const p of m.positions) add('positions', p);
  for (const e of m.events) add('events', e);
  out.push(part);
  return out;
}
