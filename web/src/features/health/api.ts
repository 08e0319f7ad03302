// GET /api/server-health and GET /api/ssl/check (server/src/ext/health.ts; always against the page origin).
import { api } from '../../api/http.ts';

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
  database: { kind: string; sizeBytes: number; walBytes: number };
  /** Several processes on one PostgreSQL database: whether this one runs the background jobs. */
  cluster?: { node: string; leader: boolean };
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
  managedBy: 'proxy';
  protocol: string;
  https: boolean;
  host: string;
  renewable: boolean;
}

/** Refresh period of the screen. */
export const HEALTH_REFRESH_MS = 10_000;

export const fetchHealth = () => api.get<ServerHealth>('/server-health');
export const fetchSsl = () => api.get<SslStatus>('/ssl/check');
