// OsmAnd protocol (CONTRACT §10): what the Traccar Client phone app and many trackers speak over HTTP.
// GET with a query string, POST form-urlencoded (body read only when the URL has no query), or POST JSON.
// Served on its own port (config.osmandPort) and as `POST /` on the web port.
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { kmhToKnots, mphToKnots, mpsToKnots } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import type { IncomingPosition, LiveCore } from './ingest.ts';
import type { IngestError } from './types.ts';
import { isDatabaseUnavailable } from '../db/sql.ts';
import { setDeviceAttributes } from '../db/repos/devices.ts';
import { edge } from '../edge.ts';

/** Unit of the `speed` parameter (Traccar's `osmand.speed`): knots unless configured otherwise. */
export type OsmAndSpeedUnit = 'knots' | 'kmh' | 'mps' | 'mph';
const KNOTS_PER_UNIT: Record<OsmAndSpeedUnit, number> = {
  knots: 1,
  kmh: kmhToKnots(1),
  mps: mpsToKnots(1),
  mph: mphToKnots(1),
};

export type OsmAndDecoded =
  | {
      ok: true;
      uniqueId: string;
      position: Omit<IncomingPosition, 'latitude' | 'longitude'> & {
        latitude?: number;
        longitude?: number;
      };
      notificationToken?: string;
    }
  | { ok: false; status: number; message: string };

/** Timestamps: Unix seconds (< 2^31) or ms, ISO with `T`, or `yyyy-MM-dd HH:mm:ss` (server time zone = UTC). */
export function parseTimestamp(value: string): Date | null {
  const v = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    return new Date(n < 2 ** 31 ? n * 1000 : n);
  }
  if (v.includes('T')) {
    const t = Date.parse(v);
    return Number.isFinite(t) ? new Date(t) : null;
  }
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(v);
  if (m) {
    const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], m[7] ? Number(m[7].padEnd(3, '0')) : 0);
    return Number.isFinite(t) ? new Date(t) : null;
  }
  return null;
}

/** Free parameters become attributes: number if numeric, boolean for true/false, else the string. */
function osmandValue(v: string): string | number | boolean {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v.trim())) return Number(v);
  return v;
}

function num(v: string, name: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new Error(`Invalid ${name}: ${v}`);
  return n;
}

/** Decodes query/form parameters (in order, repeatable keys kept). */
export function decodeOsmAndParams(
  params: Iterable<[string, string]>,
  now = new Date(),
  speedUnit: OsmAndSpeedUnit = 'knots',
): OsmAndDecoded {
  let uniqueId: string | undefined;
  let notificationToken: string | undefined;
  let time: Date | undefined;
  const attributes: Record<string, unknown> = {};
  const cellTowers: Record<string, number>[] = [];
  const wifiAccessPoints: Record<string, unknown>[] = [];
  const pos: {
    latitude?: number;
    longitude?: number;
    altitude?: number;
    speed?: number;
    course?: number;
    accuracy?: number;
    valid: boolean;
  } = { valid: true };
  try {
    for (const [key, value] of params) {
      switch (key) {
        case 'id':
        case 'deviceid':
          uniqueId = value.trim();
          break;
        case 'timestamp': {
          const t = parseTimestamp(value);
          if (!t || !Number.isFinite(t.getTime())) throw new Error(`Invalid timestamp: ${value}`);
          time = t;
          break;
        }
        case 'lat':
          pos.latitude = num(value, 'lat');
          break;
        case 'lon':
          pos.longitude = num(value, 'lon');
          break;
        case 'location': {
          const [la, lo] = value.split(',');
          pos.latitude = num(la ?? '', 'location');
          pos.longitude = num(lo ?? '', 'location');
          break;
        }
        case 'speed':
          pos.speed = num(value, 'speed') * KNOTS_PER_UNIT[speedUnit];
          break;
        case 'bearing':
        case 'heading':
          pos.course = num(value, key);
          break;
        case 'altitude':
          pos.altitude = num(value, 'altitude');
          break;
        case 'accuracy':
          pos.accuracy = num(value, 'accuracy');
          break;
        case 'hdop':
          attributes.hdop = num(value, 'hdop');
          break;
        case 'batt':
          attributes.batteryLevel = num(value, 'batt');
          break;
        case 'charge':
          attributes.charge = value === 'true' || value === '1';
          break;
        case 'valid':
          pos.valid = value === 'true' || value === '1';
          break;
        case 'driverUniqueId':
          attributes.driverUniqueId = value;
          break;
        case 'cell': {
          const c = value.split(',').map((x) => num(x, 'cell'));
          if (c.length < 4) throw new Error(`Invalid cell: ${value}`);
          const tower: Record<string, number> = {
            mobileCountryCode: c[0],
            mobileNetworkCode: c[1],
            locationAreaCode: c[2],
            cellId: c[3],
          };
          if (c.length > 4) tower.signalStrength = c[4];
          cellTowers.push(tower);
          break;
        }
        case 'wifi': {
          const [mac, rssi] = value.split(',');
          if (!mac || rssi === undefined) throw new Error(`Invalid wifi: ${value}`);
          wifiAccessPoints.push({ macAddress: mac.replace(/-/g, ':'), signalStrength: num(rssi, 'wifi') });
          break;
        }
        case 'notificationToken':
          notificationToken = value;
          break;
        default:
          if (key !== '') attributes[key] = osmandValue(value);
      }
    }
  } catch (err) {
    return { ok: false, status: 400, message: (err as Error).message };
  }
  if (!uniqueId) return { ok: false, status: 400, message: 'Device id missing' };
  const network =
    cellTowers.length || wifiAccessPoints.length
      ? {
          ...(cellTowers.length ? { cellTowers } : {}),
          ...(wifiAccessPoints.length ? { wifiAccessPoints } : {}),
        }
      : null;
  const t = time ?? now;
  return {
    ok: true,
    uniqueId,
    notificationToken,
    position: {
      uniqueId,
      protocol: 'osmand',
      fixTime: t,
      deviceTime: t,
      ...pos,
      attributes,
      network,
    },
  };
}

/** The JSON variant (Traccar Client background-geolocation shape). Arrays of flat objects are also accepted. */
export function decodeOsmAndJson(
  body: unknown,
  now = new Date(),
  speedUnit: OsmAndSpeedUnit = 'knots',
): OsmAndDecoded[] {
  if (Array.isArray(body)) {
    return body.map((item) =>
      item && typeof item === 'object'
        ? decodeOsmAndParams(
            Object.entries(item as Record<string, unknown>).map(
              ([k, v]) => [k, String(v)] as [string, string],
            ),
            now,
            speedUnit,
          )
        : { ok: false as const, status: 400, message: 'Object expected' },
    );
  }
  if (!body || typeof body !== 'object') return [{ ok: false, status: 400, message: 'JSON object expected' }];
  const b = body as Record<string, unknown>;
  const uniqueId =
    typeof b.device_id === 'string' || typeof b.device_id === 'number' ? String(b.device_id).trim() : '';
  if (!uniqueId) return [{ ok: false, status: 400, message: 'device_id missing' }];
  const loc = (b.location && typeof b.location === 'object' ? b.location : {}) as Record<string, unknown>;
  const coords = (loc.coords && typeof loc.coords === 'object' ? loc.coords : {}) as Record<string, unknown>;
  const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  let time = now;
  if (loc.timestamp !== undefined) {
    const t = parseTimestamp(String(loc.timestamp));
    if (!t) return [{ ok: false, status: 400, message: `Invalid timestamp: ${String(loc.timestamp)}` }];
    time = t;
  }
  const attributes: Record<string, unknown> = {};
  if (typeof loc.is_moving === 'boolean') attributes.motion = loc.is_moving;
  if (n(loc.odometer) !== undefined) attributes.odometer = n(loc.odometer);
  if (typeof loc.event === 'string') attributes.event = loc.event;
  if (typeof loc.mock === 'boolean') attributes.mock = loc.mock;
  const activity = loc.activity as Record<string, unknown> | undefined;
  if (activity && typeof activity.type === 'string') attributes.activity = activity.type;
  const battery = loc.battery as Record<string, unknown> | undefined;
  if (battery && n(battery.level) !== undefined)
    attributes.batteryLevel = Math.round(n(battery.level)! * 100);
  if (battery && typeof battery.is_charging === 'boolean') attributes.charge = battery.is_charging;
  if (typeof loc.alarm === 'string' || typeof b.alarm === 'string') attributes.alarm = loc.alarm ?? b.alarm;
  const extras = loc.extras as Record<string, unknown> | undefined;
  if (extras && typeof extras === 'object') {
    for (const [k, v] of Object.entries(extras)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') attributes[k] = v;
    }
  }
  const speed = n(coords.speed);
  const latitude = n(coords.latitude);
  const longitude = n(coords.longitude);
  return [
    {
      ok: true,
      uniqueId,
      position: {
        uniqueId,
        protocol: 'osmand',
        fixTime: time,
        deviceTime: time,
        valid: true,
        latitude,
        longitude,
        altitude: n(coords.altitude),
        speed: speed !== undefined && speed >= 0 ? mpsToKnots(speed) : undefined,
        course: n(coords.heading) !== undefined && n(coords.heading)! >= 0 ? n(coords.heading) : undefined,
        accuracy: n(coords.accuracy),
        attributes,
        network: null,
      },
    },
  ];
}

export interface OsmAndRequest {
  method: string;
  /** path + query */
  url: string;
  contentType?: string;
  body: string;
  /** Remote address, for the socket's logs. */
  host?: string;
}

export interface OsmAndResponse {
  status: number;
  body: string;
}

/** Handles one OsmAnd HTTP request end to end: decode, ingest, answer (queued command data as the body). */
export async function handleOsmAnd(
  ctx: AppContext,
  live: LiveCore,
  req: OsmAndRequest,
): Promise<OsmAndResponse> {
  const q = req.url.indexOf('?');
  const query = q >= 0 ? req.url.slice(q + 1) : '';
  const speedUnit = ctx.config.osmandSpeed ?? 'knots';
  let decoded: OsmAndDecoded[];
  let json = false;
  if (query) {
    decoded = [decodeOsmAndParams(new URLSearchParams(query), new Date(), speedUnit)];
  } else if (req.method === 'POST' && (req.contentType ?? '').toLowerCase().includes('application/json')) {
    json = true;
    let body: unknown;
    try {
      body = JSON.parse(req.body);
    } catch {
      return { status: 400, body: 'Invalid JSON' };
    }
    decoded = decodeOsmAndJson(body, new Date(), speedUnit);
  } else if (req.method === 'POST' && req.body) {
    decoded = [decodeOsmAndParams(new URLSearchParams(req.body), new Date(), speedUnit)];
  } else {
    return { status: 400, body: 'Device id missing' };
  }
  let answer = '';
  for (const d of decoded) {
    if (!d.ok) return { status: d.status, body: d.message };
    const deviceId = await live.findDeviceAsync({ uniqueId: d.uniqueId }); // the cache and a miss on the pool
    // the socket's logs (Traccar's Logs page): unknown devices too, with deviceId 0, so an administrator can
    // see the identifier and register it
    live.logSink?.({
      host: req.host ?? '',
      protocol: 'osmand',
      uniqueId: d.uniqueId,
      deviceId: deviceId ?? 0,
      data: query ? req.url : req.body.slice(0, 4096),
    });
    if (deviceId === undefined) {
      // remembered for autolink (live/autolink.ts); without a fix only the identifier counts
      live.onUnknownDevice?.({
        ...d.position,
        uniqueId: d.uniqueId,
        latitude: d.position.latitude ?? NaN,
        longitude: d.position.longitude ?? NaN,
      });
      return { status: json ? 404 : 400, body: `Unknown device ${d.uniqueId}` };
    }
    if (d.notificationToken) await saveNotificationToken(ctx, live, deviceId, d.notificationToken);
    let { latitude, longitude } = d.position;
    const p = { ...d.position };
    if (latitude === undefined || longitude === undefined) {
      // "outdated": no fix in this request (e.g. the token upload) — reuse the last known location
      const last = await live.latestPositionAsync(deviceId);
      if (!last) continue;
      latitude = last.latitude;
      longitude = last.longitude;
      p.altitude ??= last.altitude;
      p.fixTime = new Date(last.fixTime);
      p.valid = false;
    }
    const outdated = d.position.latitude === undefined || d.position.longitude === undefined;
    const r = await live.ingest({ ...p, latitude, longitude, outdated });
    if (!r.ok) return { status: ingestStatus(r.error, json), body: r.message };
    for (const c of r.commands) answer += commandText(c.type, c.attributes);
  }
  return { status: 200, body: answer };
}

/** The answer to a refused position: 503 when the store refused its batch (the tracker sends it again). */
function ingestStatus(error: IngestError, json: boolean): number {
  if (error === 'unavailable') return 503;
  return error === 'unknownDevice' && json ? 404 : 400;
}

/** What a phone app receives for a queued command: the custom data, else the command type. */
function commandText(type: string, attributes: Record<string, unknown>): string {
  return type === 'custom' && typeof attributes.data === 'string' ? attributes.data : type;
}

/** Stores a phone's notification token in its device's attributes (one write, the main thread free: issue #30). */
async function saveNotificationToken(
  ctx: AppContext,
  live: LiveCore,
  deviceId: number,
  token: string,
): Promise<void> {
  const attrs = { ...(live.cache.deviceAttrs.get(deviceId) ?? {}) };
  const list = typeof attrs.notificationTokens === 'string' ? attrs.notificationTokens.split(',') : [];
  if (list.includes(token)) return;
  attrs.notificationTokens = [...list, token].join(',');
  await setDeviceAttributes(ctx.store.sql, deviceId, JSON.stringify(attrs));
  live.invalidate();
}

/** The largest OsmAnd request body, on its own port and on the web port alike (larger ⇒ 413). */
export const OSMAND_MAX_BODY = 1024 * 1024;

/** `POST /` on the web port (Traccar's client proxy): phones may post to the web address too. */
export async function registerOsmAndRoute(
  app: FastifyInstance,
  ctx: AppContext,
  live: LiveCore,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    // any media (form, JSON, none), the OsmAnd port's size limit; reports need no session
    const osmandEdge = { bodyLimit: OSMAND_MAX_BODY, ...edge({ media: 'raw', need: 'public' }) };
    scope.post('/', osmandEdge, async (req, reply) => {
      const r = await handleOsmAnd(ctx, live, {
        method: 'POST',
        url: req.url,
        contentType: req.headers['content-type'],
        body: typeof req.body === 'string' ? req.body : '',
        host: req.ip,
      });
      reply.status(r.status).type('text/plain; charset=utf-8').send(r.body);
    });
  });
}

/** The dedicated OsmAnd listener (plain node:http for throughput). Port 0 in config = off. */
export async function startOsmAndServer(
  ctx: AppContext,
  live: LiveCore,
  port = ctx.config.osmandPort,
  host = ctx.config.host,
): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > OSMAND_MAX_BODY) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      handleOsmAnd(ctx, live, {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
        host: req.socket.remoteAddress ?? '',
      })
        .then((r) => {
          res.writeHead(r.status, {
            'content-type': 'text/plain; charset=utf-8',
            'content-length': Buffer.byteLength(r.body),
          });
          res.end(r.body);
        })
        .catch((err: unknown) => {
          ctx.log.error({ err }, 'osmand request failed');
          // the database could not be reached: 503, so the tracker sends the position again (issue #30)
          res.writeHead(isDatabaseUnavailable(err) ? 503 : 400, { 'content-length': 0 }).end();
        });
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
