// The extension API in gateway mode: device pictures, installation photos, media and weather answered by Rastro
// in front of an upstream Traccar (here: our own embedded server), with identity and device permissions asked
// upstream with the caller's own cookie. Files land in the gateway's DATA_DIR, never upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  createDevice,
  createUser,
  link,
  startGatewayPair,
  unlink,
  type GatewayPair,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import type { AppContext } from '../../src/context.ts';
import { registerAuthorization } from '../../src/authorize.ts';
import { registerEdge } from '../../src/edge.ts';
import { ApiError } from '../../src/errors.ts';
import { callerStats, forgetCallerCache } from '../../src/ext/caller.ts';
import { registerWeather, type WeatherAdapter } from '../../src/ext/weather.ts';
import { forgetIdentities } from '../../src/gateway/identity.ts';

let upstream: TestApp;
let gatewayCtx: AppContext;
let dir: string; // the gateway's DATA_DIR
let gw: string;
let ns: string;

let device: { id: number; uniqueId: string };
let seer: CreatedUser; // linked to the device
let stranger: CreatedUser; // not linked
let readonlyUser: CreatedUser; // linked, readonly
let deviceReadonlyUser: CreatedUser; // linked, deviceReadonly

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);

let pair: GatewayPair | undefined;

beforeAll(async () => {
  pair = await startGatewayPair('rastro-gw-ext-');
  ({ upstream, gatewayCtx, dir, url: gw, ns } = pair);

  device = await createDevice(upstream, { uniqueId: 'gw-ext-1' });
  seer = await createUser(upstream);
  stranger = await createUser(upstream);
  readonlyUser = await createUser(upstream, { readonly: true });
  deviceReadonlyUser = await createUser(upstream, { deviceReadonly: true });
  for (const u of [seer, readonlyUser, deviceReadonlyUser])
    await link(upstream, { userId: u.id, deviceId: device.id });
});

afterAll(async () => {
  await pair?.close();
});

function call(
  method: string,
  path: string,
  cookie: string | null,
  body?: Buffer,
  type = 'image/png',
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body) headers['content-type'] = type;
  return fetch(`${gw}${path}`, { method, headers, body: body ? new Uint8Array(body) : undefined });
}

async function expectText(res: Response, status: number, text: string): Promise<void> {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  expect(body).toBe(text);
}

const DENIED = 'SecurityException: Device access denied';
const READONLY = 'SecurityException: Write access denied';
const UNAUTHORIZED = 'WebApplicationException: Unauthorized';

describe('device picture through the gateway', () => {
  it('a user who sees the device uploads it; the file lands in the gateway DATA_DIR and reads back', async () => {
    const res = await call('POST', `/api/devices/${device.id}/image`, seer.cookie, JPEG, 'image/jpeg');
    await expectText(res, 200, 'device.jpeg');
    // stored exactly as in embedded mode, but by the gateway: the upstream never saw the upload
    expect(readFileSync(join(dir, 'media', device.uniqueId, 'device.jpeg')).equals(JPEG)).toBe(true);
    expect(readFileSync(join(dir, 'images', `${device.id}.png`)).equals(JPEG)).toBe(true);
    expect(existsSync(join(upstream.dir, 'media', device.uniqueId))).toBe(false);

    expect((await call('GET', `/${ns}/assets/images/${device.id}.png`, null)).status).toBe(401); // needs a session
    const pic = await call('GET', `/${ns}/assets/images/${device.id}.png`, seer.cookie);
    expect(pic.status).toBe(200);
    expect(Buffer.from(await pic.arrayBuffer()).equals(JPEG)).toBe(true);

    const media = await call('GET', `/api/media/${device.uniqueId}/device.jpeg`, seer.cookie);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await media.arrayBuffer()).equals(JPEG)).toBe(true);

    // a new upload replaces the old file
    await expectText(
      await call('POST', `/api/devices/${device.id}/image`, seer.cookie, PNG),
      200,
      'device.png',
    );
    expect(existsSync(join(dir, 'media', device.uniqueId, 'device.jpeg'))).toBe(false);
    expect((await call('GET', `/api/media/${device.uniqueId}/device.jpeg`, seer.cookie)).status).toBe(404);
  });

  it('validates the body as in embedded mode', async () => {
    const res = await call(
      'POST',
      `/api/devices/${device.id}/image`,
      seer.cookie,
      Buffer.from('hello'),
      'text/plain',
    );
    expect(res.status).toBe(415);
    const fake = await call('POST', `/api/devices/${device.id}/image`, seer.cookie, Buffer.from('hello'));
    await expectText(fake, 400, 'IllegalArgumentException: The file is not a valid png image');
  });

  it('refuses a user who does not see the device, readonly users and anonymous callers', async () => {
    await expectText(
      await call('POST', `/api/devices/${device.id}/image`, stranger.cookie, PNG),
      400,
      DENIED,
    );
    await expectText(await call('POST', `/api/devices/999999/image`, seer.cookie, PNG), 400, DENIED);
    await expectText(
      await call('POST', `/api/devices/${device.id}/image`, readonlyUser.cookie, PNG),
      400,
      READONLY,
    );
    await expectText(
      await call('POST', `/api/devices/${device.id}/image`, deviceReadonlyUser.cookie, PNG),
      400,
      READONLY,
    );
    await expectText(await call('POST', `/api/devices/${device.id}/image`, null, PNG), 401, UNAUTHORIZED);
    await expectText(
      await call('POST', `/api/devices/${device.id}/image`, 'JSESSIONID=dead', PNG),
      401,
      UNAUTHORIZED,
    );
    await expectText(
      await call('GET', `/api/media/${device.uniqueId}/device.png`, stranger.cookie),
      400,
      DENIED,
    );
    await expectText(await call('GET', `/api/media/${device.uniqueId}/device.png`, null), 401, UNAUTHORIZED);
    // readonly users still read
    expect((await call('GET', `/api/media/${device.uniqueId}/device.png`, readonlyUser.cookie)).status).toBe(
      200,
    );
  });

  it('a media file only the upstream Traccar holds is fetched from it with the caller credentials', async () => {
    const upstreamMedia = join(upstream.dir, 'media', device.uniqueId);
    mkdirSync(upstreamMedia, { recursive: true });
    writeFileSync(join(upstreamMedia, 'camera.jpeg'), JPEG);
    const res = await call('GET', `/api/media/${device.uniqueId}/camera.jpeg`, seer.cookie);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(JPEG)).toBe(true);
    expect((await call('GET', `/api/media/${device.uniqueId}/nothing.jpeg`, seer.cookie)).status).toBe(404);
    await expectText(
      await call('GET', `/api/media/${device.uniqueId}/camera.jpeg`, stranger.cookie),
      400,
      DENIED,
    );
  });
});

describe('installation photos through the gateway', () => {
  it('upload, list, read and delete as a user who sees the device', async () => {
    const up = await call('POST', `/${ns}/devices/${device.id}/photos`, seer.cookie, PNG);
    expect(up.status).toBe(200);
    const photo = (await up.json()) as { name: string; url: string; size: number };
    expect(photo.size).toBe(PNG.length);
    expect(photo.url).toBe(`/${ns}/devices/${device.id}/photos/${photo.name}`);
    expect(existsSync(join(dir, 'media', device.uniqueId, 'photos', photo.name))).toBe(true);

    const list = await call('GET', `/${ns}/devices/${device.id}/photos`, seer.cookie);
    expect(list.status).toBe(200);
    expect(((await list.json()) as Array<{ name: string }>).map((p) => p.name)).toEqual([photo.name]);

    const file = await call('GET', photo.url, seer.cookie);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);

    // readonly users may read but not delete
    expect((await call('GET', photo.url, readonlyUser.cookie)).status).toBe(200);
    await expectText(await call('DELETE', photo.url, readonlyUser.cookie), 400, READONLY);
    await expectText(await call('DELETE', photo.url, deviceReadonlyUser.cookie), 400, READONLY);
    await expectText(
      await call('POST', `/${ns}/devices/${device.id}/photos`, readonlyUser.cookie, PNG),
      400,
      READONLY,
    );

    expect((await call('DELETE', photo.url, seer.cookie)).status).toBe(204);
    expect(existsSync(join(dir, 'media', device.uniqueId, 'photos', photo.name))).toBe(false);
    const after = await call('GET', `/${ns}/devices/${device.id}/photos`, seer.cookie);
    expect(await after.json()).toEqual([]);
  });

  it('refuses a user who does not see the device and anonymous callers', async () => {
    const base = `/${ns}/devices/${device.id}/photos`;
    await expectText(await call('GET', base, stranger.cookie), 400, DENIED);
    await expectText(await call('POST', base, stranger.cookie, PNG), 400, DENIED);
    await expectText(await call('DELETE', `${base}/x.png`, stranger.cookie), 400, DENIED);
    await expectText(await call('GET', base, null), 401, UNAUTHORIZED);
    await expectText(await call('POST', base, null, PNG), 401, UNAUTHORIZED);
    await expectText(await call('DELETE', `${base}/x.png`, null), 401, UNAUTHORIZED);
  });

  it('asks upstream once per caller and device within the cache time; a revoked link shows once it expires', async () => {
    forgetCallerCache(gatewayCtx);
    const base = `/${ns}/devices/${device.id}/photos`;
    const before = callerStats.upstreamCalls;
    expect((await call('GET', base, seer.cookie)).status).toBe(200);
    expect((await call('GET', base, seer.cookie)).status).toBe(200);
    expect(callerStats.upstreamCalls - before).toBe(1);

    const other = await createUser(upstream);
    await link(upstream, { userId: other.id, deviceId: device.id });
    expect((await call('GET', base, other.cookie)).status).toBe(200);
    await unlink(upstream, { userId: other.id, deviceId: device.id });
    forgetCallerCache(gatewayCtx);
    forgetIdentities(gatewayCtx);
    await expectText(await call('GET', base, other.cookie), 400, DENIED);
  });
});

describe('GET /api/weather needs a signed-in caller in gateway mode', () => {
  const adapter: WeatherAdapter = {
    current: async () => ({ temperature: 19.5, wind_speed: 4, weathercode: 2, time: '2026-11-22T03:00' }),
  };
  let weather: FastifyInstance;
  beforeAll(async () => {
    // the gateway's own context (upstream identity) with a fake weather service
    weather = Fastify();
    weather.setErrorHandler((err, _req, reply) => {
      if (err instanceof ApiError) return reply.status(err.status).type('text/plain').send(err.body);
      return reply.status(500).send('x');
    });
    registerEdge(weather, gatewayCtx); // the edge parses the query (issue #27), the gate answers its 400
    registerAuthorization(weather, gatewayCtx);
    await registerWeather(weather, gatewayCtx, { adapter });
  });
  afterAll(async () => {
    await weather.close();
  });

  it('401 anonymously or with a dead upstream session, 200 for an upstream user', async () => {
    for (const headers of [{}, { cookie: 'JSESSIONID=dead' }]) {
      const res = await weather.inject({ method: 'GET', url: '/api/weather?lat=1&lon=2', headers });
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe(UNAUTHORIZED);
    }
    const ok = await weather.inject({
      method: 'GET',
      url: '/api/weather?lat=1&lon=2',
      headers: { cookie: stranger.cookie },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      current_weather: { temperature: 19.5, wind_speed: 4, weathercode: 2, time: '2026-11-22T03:00' },
    });
  });

  it('the running gateway answers 401 to anonymous weather calls', async () => {
    await expectText(await call('GET', '/api/weather?lat=1&lon=2', null), 401, UNAUTHORIZED);
  });
});
