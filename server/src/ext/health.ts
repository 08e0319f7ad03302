// GET /api/server-health and /api/ssl/* (SPEC §7 "Health and SSL"; shapes are ours, SPEC does not show them).
// Administrators only (401 signed out, 400 `SecurityException: Administrator access required` otherwise), in both
// modes. Health reports real figures of this process: uptime, memory, load, disk, database file size and, in
// embedded mode, devices by status, the live core's position counters with a one-minute rate, and socket clients;
// in gateway mode whether the upstream Traccar answers. Rastro never terminates TLS itself (a reverse proxy does),
// so /api/ssl/check says so with the protocol the proxy reported, and the write routes answer 400 explaining it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { statSync, statfsSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import type { AppContext } from '../context.ts';
import { badRequest, denied } from '../errors.ts';
import { upstreamOf } from '../gateway/upstream.ts';
import { getLiveServices } from '../live/index.ts';
import { VERSION } from '../traccar/server.ts';
import { requireCaller } from './caller.ts';
import { edge, noBody } from '../edge.ts';
import { deviceCountsByStatus } from '../db/repos/devices.ts';

/** Sampling period of the position-rate meter. */
export const RATE_SAMPLE_MS = 5_000;
/** Window the positions-per-second figure is averaged over. */
export const RATE_WINDOW_MS = 60_000;

/** Rate of a growing counter over a sliding window, from samples (time, counter value). */
export class RateMeter {
  private samples: Array<{ at: number; value: number }> = [];
  constructor(private readonly windowMs = RATE_WINDOW_MS) {}

  add(at: number, value: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last && at <= last.at) {
      last.value = value;
      return;
    }
    this.samples.push({ at, value });
    // Keep one sample at or before the window start so the window is fully covered.
    while (this.samples.length > 2 && this.samples[1].at <= at - this.windowMs) this.samples.shift();
  }

  /** Per second over the window (or over what has been seen so far); 0 with fewer than two samples. */
  perSecond(): number {
    if (this.samples.length < 2) return 0;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const seconds = (last.at - first.at) / 1000;
    if (seconds <= 0) return 0;
    return Math.max(0, (last.value - first.value) / seconds);
  }
}

export interface ServerHealth {
  status: 'ok' | 'degraded';
  mode: 'embedded' | 'gateway';
  version: string;
  time: string;
  startedAt: string;
  uptimeSeconds: number;
  node: string;
  platform: string;
  cpus: number;
  loadAverage: number[];
  memory: { rss: number; heapUsed: number; heapTotal: number; systemTotal: number; systemFree: number };
  disk: { free: number; total: number } | null;
  database: { kind: 'sqlite' | 'postgres'; sizeBytes: number; walBytes: number };
  /** This process among those sharing the PostgreSQL database: whether it runs the background jobs. */
  cluster: { node: string; leader: boolean };
  devices: { total: number; online: number; offline: number; unknown: number } | null;
  positions: {
    received: number;
    stored: number;
    rejected: number;
    events: number;
    perSecond: number;
    perSecondSinceStart: number;
  } | null;
  sockets: { clients: number } | null;
  upstream: { origin: string; reachable: boolean; status: number | null } | null;
}

export interface SslStatus {
  /** Who holds the certificate: always the reverse proxy (or load balancer) in front of Rastro. */
  managedBy: 'proxy';
  /** The protocol the browser used, as the proxy reports it (X-Forwarded-Proto), else the connection's. */
  protocol: string;
  https: boolean;
  host: string;
  /** Rastro cannot renew, configure or save certificates. */
  renewable: false;
}

export interface HealthOptions {
  now?: () => number;
  /** Process start (ms since epoch); default: computed from process.uptime(). */
  startedAt?: number;
}

async function requireAdmin(ctx: AppContext, req: FastifyRequest): Promise<void> {
  const caller = await requireCaller(ctx, req);
  if (!caller.administrator) throw denied('Administrator access required');
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function databaseFigures(ctx: AppContext): Promise<ServerHealth['database']> {
  const file = ctx.config.sqliteFile;
  return {
    kind: ctx.store.kind,
    sizeBytes: await ctx.store.sizeBytes(),
    walBytes: ctx.store.kind === 'postgres' || file === ':memory:' ? 0 : fileSize(`${file}-wal`),
  };
}

async function deviceFigures(ctx: AppContext): Promise<NonNullable<ServerHealth['devices']>> {
  const rows = await deviceCountsByStatus(ctx.store.sql);
  const out = { total: 0, online: 0, offline: 0, unknown: 0 };
  for (const r of rows) {
    out.total += r.n;
    if (r.status === 'online') out.online += r.n;
    else if (r.status === 'unknown') out.unknown += r.n;
    else out.offline += r.n; // a null status is served as offline (CONTRACT §7)
  }
  return out;
}

async function upstreamFigures(ctx: AppContext): Promise<NonNullable<ServerHealth['upstream']>> {
  const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
  try {
    const res = await fetch(`${origin}${basePath}/api/server`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    return { origin, reachable: res.ok, status: res.status };
  } catch {
    return { origin, reachable: false, status: null };
  }
}

export async function registerHealth(
  app: FastifyInstance,
  ctx: AppContext,
  opts: HealthOptions = {},
): Promise<void> {
  const now = opts.now ?? Date.now;
  const startedAt = opts.startedAt ?? now() - Math.round(process.uptime() * 1000);
  const embedded = ctx.config.mode === 'embedded';
  const meter = new RateMeter();
  const stats = () => (embedded ? getLiveServices(ctx).live.stats : null);

  if (embedded) {
    const sample = () => meter.add(now(), stats()?.stored ?? 0);
    sample();
    const timer = setInterval(sample, RATE_SAMPLE_MS);
    timer.unref();
    ctx.onClose.push(() => clearInterval(timer));
  }

  app.get('/api/server-health', edge({ need: 'table' }), async (req) => {
    await requireAdmin(ctx, req);
    const at = now();
    const uptimeSeconds = Math.max(0, Math.round((at - startedAt) / 1000));
    const mem = process.memoryUsage();
    let disk: ServerHealth['disk'];
    try {
      const s = statfsSync(ctx.config.dataDir);
      disk = { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
    } catch {
      disk = null;
    }
    let positions: ServerHealth['positions'] = null;
    let sockets: ServerHealth['sockets'] = null;
    let devices: ServerHealth['devices'] = null;
    let upstream: ServerHealth['upstream'] = null;
    if (embedded) {
      const live = getLiveServices(ctx);
      meter.add(at, live.live.stats.stored);
      const { received, stored, rejected, events } = live.live.stats;
      positions = {
        received,
        stored,
        rejected,
        events,
        perSecond: Math.round(meter.perSecond() * 100) / 100,
        perSecondSinceStart: uptimeSeconds > 0 ? Math.round((stored / uptimeSeconds) * 100) / 100 : 0,
      };
      sockets = { clients: live.hub.clientCount };
      devices = await deviceFigures(ctx);
    } else {
      upstream = await upstreamFigures(ctx);
    }
    const body: ServerHealth = {
      status: upstream && !upstream.reachable ? 'degraded' : 'ok',
      mode: ctx.config.mode,
      version: VERSION,
      time: new Date(at).toISOString(),
      startedAt: new Date(startedAt).toISOString(),
      uptimeSeconds,
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus().length,
      loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
      memory: {
        rss: mem.rss,
        heapUsed: mem.heapUsed,
        heapTotal: mem.heapTotal,
        systemTotal: totalmem(),
        systemFree: freemem(),
      },
      disk,
      database: await databaseFigures(ctx),
      cluster: { node: ctx.cluster.node, leader: ctx.cluster.isLeader() },
      devices,
      positions,
      sockets,
      upstream,
    };
    return body;
  });

  // administrators only: the gate refuses everyone else
  app.get('/api/ssl/check', edge({ need: 'administrator' }), async (req) => {
    const status: SslStatus = {
      managedBy: 'proxy',
      protocol: req.protocol,
      https: req.protocol === 'https',
      host: req.hostname,
      renewable: false,
    };
    return status;
  });

  const notHere =
    'TLS certificates are managed by the reverse proxy in front of Rastro; renew or configure them there';
  for (const path of ['/api/ssl/renew', '/api/ssl/configure-auto-renewal', '/api/ssl/save-config']) {
    app.post(path, edge({ body: noBody, need: 'administrator' }), async () => {
      throw badRequest(notHere);
    });
  }
}
