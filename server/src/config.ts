// Every setting Rastro reads from the environment, typed and validated in one place
// (documented in docs/configuration.md).
import { z } from 'zod';
import { resolve } from 'node:path';

const intFrom = (def: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: `expected a whole number >= 0, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const envSchema = z.object({
  PORT: intFrom(8082),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  SIM_DEVICES: intFrom(25),
  OSMAND_PORT: intFrom(5055),
  /** Unit of the OsmAnd `speed` parameter (Traccar's osmand.speed). */
  OSMAND_SPEED: z.enum(['knots', 'kmh', 'mps', 'mph']).default('knots'),
  TRACCAR_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TRACCAR_TOKEN: z.string().optional(),
  RASTRO_NS: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*$/, 'lower-case letters, digits, - and _')
    .default('rastro'),
  RASTRO_ADMIN_EMAIL: z.string().min(1).default('admin'),
  RASTRO_ADMIN_PASSWORD: z.string().min(1).default('admin'),
  RASTRO_EDITION: z.enum(['plus', 'basic']).default('plus'),
  RASTRO_DEVICE_LIMIT: intFrom(0),
  /** postgres://user:password@host:port/database: keep every table in PostgreSQL instead of SQLite. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// or postgresql:// connection address')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Connections of PostgreSQL's read pool (reports and insights read there without blocking the server). */
  DATABASE_POOL_SIZE: intFrom(4),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** pretty: short human-readable lines (default); json: one JSON object a line, for log collectors. */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** Seconds without a message before a device turns "unknown" (Traccar's status.timeout). */
  STATUS_TIMEOUT: intFrom(600),
  /** Simulator tick in milliseconds. */
  SIM_INTERVAL_MS: intFrom(5000),
  /** Seed of the demo fleet's generator: same seed, same fleet and routes. */
  SIM_SEED: intFrom(1),
  /** Folder of the built web app (default web/dist); lets parallel test runs serve their own build. */
  WEB_ROOT: z.string().optional(),
  /** Origins allowed to call the API from a browser (Traccar's web.origin): comma list, or `*` for any. */
  WEB_ORIGIN: z.string().optional(),
  /** Days a password session survives without a request (remember-me tokens have their own expiry). */
  SESSION_IDLE_DAYS: intFrom(30),
  /** The address users reach Rastro at (links in mails): default http://localhost:PORT. */
  PUBLIC_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** A Nominatim-compatible reverse geocoder (Nominatim, LocationIQ, self-hosted); addresses off when unset. */
  GEOCODER_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** API key sent as `key=` (hosted Nominatim APIs such as LocationIQ). */
  GEOCODER_KEY: z.string().optional(),
  /** At most one geocoder request per this many ms (the public Nominatim allows one a second). */
  GEOCODER_MIN_INTERVAL_MS: intFrom(1000),
  GEOCODER_TIMEOUT_MS: intFrom(10_000),
  /** Whether each device's newest position gets its address as it arrives. */
  GEOCODER_ON_INGEST: z.enum(['true', 'false', '1', '0']).default('true'),
  /** Open-Meteo-compatible weather forecast API for the map's weather chip (default: the public Open-Meteo). */
  WEATHER_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export interface GeocoderSettings {
  url: string;
  key?: string;
  minIntervalMs: number;
  timeoutMs: number;
  onIngest: boolean;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The embedded SQLite file (":memory:" allowed in tests). */
  sqliteFile: string;
  /** PostgreSQL instead of the SQLite file (DATABASE_URL). */
  databaseUrl?: string;
  /** Connections of PostgreSQL's read pool (DATABASE_POOL_SIZE, db/pool.ts). */
  dbPoolSize: number;
  simDevices: number;
  simIntervalMs: number;
  simSeed: number;
  osmandPort: number;
  /** Unit of the OsmAnd `speed` parameter; the JSON (phone SDK) variant is always m/s. */
  osmandSpeed?: 'knots' | 'kmh' | 'mps' | 'mph';
  traccarUrl?: string;
  traccarToken?: string;
  ns: string;
  adminEmail: string;
  adminPassword: string;
  edition: 'plus' | 'basic';
  /** 0 = unlimited. Sent as the devicelimit header of GET /api/server. */
  deviceLimit: number;
  logLevel: string;
  logFormat: 'pretty' | 'json';
  /** Where log lines go (tests read them); standard output when absent. */
  logStream?: NodeJS.WritableStream;
  statusTimeoutSeconds: number;
  /** Where the built web app lives (served at /). */
  webRoot: string;
  /** Extra browser origins allowed by CORS besides the app's own host; ['*'] = any origin. */
  webOrigins: string[];
  /** Origin (and optional base path) of the links Rastro mails, without a trailing slash. */
  publicUrl: string;
  /** A cookie session unused this long ends (ms). */
  sessionIdleMs: number;
  /** Reverse geocoder; undefined = addresses off. */
  geocoder?: GeocoderSettings;
  /** Weather forecast API (WEATHER_URL); undefined = the public Open-Meteo. */
  weatherUrl?: string;
  mode: 'embedded' | 'gateway';
}

/** PUBLIC_URL without its trailing slash, else the server's own address (localhost for a loopback/any host). */
export function publicUrlOf(value: string | undefined, host: string, port: number): string {
  if (value) return value.replace(/\/+$/, '');
  const local = ['0.0.0.0', '127.0.0.1', '::', '::1', ''].includes(host);
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** `WEB_ORIGIN` as a list of origins (`https://a.example, https://b.example`), or ['*']. */
export function parseWebOrigins(value: string | undefined): string[] {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (items.includes('*')) return ['*'];
  return items.map((o) => {
    let url: URL;
    try {
      url = new URL(o);
    } catch {
      throw new Error(`Invalid configuration:\n  WEB_ORIGIN: "${o}" is not an origin like https://host:port`);
    }
    return url.origin.toLowerCase();
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  // A relative DATA_DIR is taken from where the user ran npm (INIT_CWD), not from the workspace folder that
  // `npm start -w server` switches to, so `npm start` at the repository root keeps its data in ./data.
  const dataDir = resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR);
  const base: Config = {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    sqliteFile: resolve(dataDir, 'rastro.db'),
    databaseUrl: e.DATABASE_URL,
    dbPoolSize: Math.max(1, e.DATABASE_POOL_SIZE),
    simDevices: e.SIM_DEVICES,
    simIntervalMs: e.SIM_INTERVAL_MS || 5000,
    simSeed: e.SIM_SEED,
    osmandPort: e.OSMAND_PORT,
    osmandSpeed: e.OSMAND_SPEED,
    traccarUrl: e.TRACCAR_URL,
    traccarToken: e.TRACCAR_TOKEN,
    ns: e.RASTRO_NS,
    adminEmail: e.RASTRO_ADMIN_EMAIL,
    adminPassword: e.RASTRO_ADMIN_PASSWORD,
    edition: e.RASTRO_EDITION,
    deviceLimit: e.RASTRO_DEVICE_LIMIT,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
    statusTimeoutSeconds: e.STATUS_TIMEOUT || 600,
    webRoot: e.WEB_ROOT ? resolve(e.WEB_ROOT) : resolve(import.meta.dirname, '../../web/dist'),
    webOrigins: parseWebOrigins(e.WEB_ORIGIN),
    publicUrl: publicUrlOf(e.PUBLIC_URL, e.HOST, e.PORT),
    sessionIdleMs: (e.SESSION_IDLE_DAYS || 30) * 86_400_000,
    geocoder: e.GEOCODER_URL
      ? {
          url: e.GEOCODER_URL,
          key: e.GEOCODER_KEY || undefined,
          minIntervalMs: e.GEOCODER_MIN_INTERVAL_MS,
          timeoutMs: e.GEOCODER_TIMEOUT_MS || 10_000,
          onIngest: e.GEOCODER_ON_INGEST === 'true' || e.GEOCODER_ON_INGEST === '1',
        }
      : undefined,
    weatherUrl: e.WEATHER_URL,
    mode: e.TRACCAR_URL ? 'gateway' : 'embedded',
  };
  return { ...base, ...overrides };
}
