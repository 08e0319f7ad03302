import type { FastifyBaseLogger } from 'fastify';
import { EventEmitter } from 'node:events';
import type { Config } from './config.ts';
import type { Cluster } from './db/cluster.ts';
import type { Store } from './db/open.ts';

/**
 * What every server module receives. Modules register routes with `(app, ctx)` and never reach for globals,
 * so tests build as many isolated servers as they need.
 */
export interface AppContext {
  config: Config;
  /** The embedded Traccar store; absent in gateway mode. */
  store: Store;
  /** The other server processes on the same PostgreSQL database, and who runs the background jobs (db/cluster.ts). */
  cluster: Cluster;
  log: FastifyBaseLogger;
  /**
   * In-process bus: 'device' (DeviceRow id), 'position', 'event', 'permissions' (link changes; the device ids when
   * only theirs changed), 'signedOut' (user id: sessions ended by the server).
   */
  bus: EventEmitter;
  /** Tasks to stop on shutdown (timers, listeners, simulator). */
  onClose: Array<() => void | Promise<void>>;
}
