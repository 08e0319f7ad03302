// Several server processes on one PostgreSQL database behave as one server (docs/deployment.md):
// - what one process changes reaches the others through PostgreSQL's LISTEN/NOTIFY (a channel per schema):
//   new positions, events and device states for their socket clients, "configuration changed" for their caches,
//   sessions ended by the server;
// - background jobs (billing, scheduled reports, the status sweep, the demo fleet, housekeeping) run in one process,
//   the leader: the one holding a session advisory lock on its store connection. When it stops or dies, its
//   connection closes, the lock is free and another process takes it within LEADER_RETRY_MS.
// On SQLite (one process) the local cluster is always the leader and sends nothing.
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import type { PostgresDatabase } from './postgres.ts';

/** A device's live state as another process stored it: id, status, last update (ms or null), latest position id. */
export type RemoteDeviceState = [number, string | null, number | null, number];

export type ClusterMessage =
  | { t: 'live'; devices: RemoteDeviceState[]; positions: number[]; events: number[] }
  | { t: 'changed' }
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
/** Takes the leader's lock; the leader's second hold is released at once, so the lock count stays at one. */
const LEAD = `SELECT CASE WHEN pg_try_advisory_lock(hashtext($1))
             THEN (CASE WHEN $2 = 1 THEN pg_advisory_unlock(hashtext($1)) ELSE true END)
             ELSE false END AS ok`;
/** NOTIFY payloads must stay under 8000 bytes; longer lists are split to fit. */
const MAX_PAYLOAD = 7000;

export class PgCluster implements Cluster {
  readonly node = randomUUID();
  private leader = false;
  /** The store connection's generation when the lock was taken: a lost connection lost the lock with it. */
  private leaderGeneration = -1;
  private readonly listeners = new Set<(m: ClusterMessage) => void>();
  private readonly channel: string;
  private readonly lockKey: string;
  private listener: postgres.Sql | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly db: PostgresDatabase,
    private readonly url: string,
    private readonly onError: (err: unknown) => void,
  ) {
    const schema = (db.prepareNative('SELECT current_schema() AS s').get() as { s: string }).s;
    this.channel = `rastro_${schema}`.replace(/[^a-z0-9_]/gi, '_').slice(0, 60);
    this.lockKey = `rastro-leader:${schema}`;
  }

  /** Joins the cluster: takes the leader lock if it is free, listens to the others. */
  static async start(db: PostgresDatabase, url: string, onError: (err: unknown) => void): Promise<PgCluster> {
    const c = new PgCluster(db, url, onError);
    c.tryLead();
    // asked again without waiting: the main thread does not wait behind a batch's COMMIT (issue #30)
    c.timer = setInterval(() => c.tryLead(false), LEADER_RETRY_MS);
    c.timer.unref();
    await c.listen();
    return c;
  }

  /** False the moment the store's connection is lost (issue #30): the lock went with it, another may take it. */
  isLeader(): boolean {
    return this.leader && this.db.client.generation === this.leaderGeneration;
  }

  /**
   * Takes the lock, or confirms it is still held: asked again by the leader too (a session lock is re-entrant), so
   * a leader whose connection was lost and re-made without the lock steps down instead of leading twice.
   */
  private tryLead(wait = true): void {
    if (this.closed) return;
    // the lock is still held only on the connection that took it: after a reconnect it is taken again
    const before = this.db.client.generation;
    const held = this.leader && before === this.leaderGeneration;
    const answered = (err: unknown, row?: Record<string, unknown>) => {
      if (this.closed) return;
      if (err) {
        this.leader = false;
        this.onError(err);
        return;
      }
      const after = this.db.client.generation;
      // a connection lost while asking: ask again at the next round
      this.leader = row?.ok === 1 && after === before;
      this.leaderGeneration = after;
    };
    const values = [this.lockKey, held ? 1 : 0];
    try {
      if (wait) answered(null, this.db.prepareNative(LEAD).get(...values) as Record<string, unknown>);
      else this.db.getPosted(LEAD, values, answered);
    } catch (err) {
      answered(err);
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
    // the leader lock goes with the store connection, closed after this
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
