import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { createServer, type Server } from 'node:http';
import { registerAuthorization } from '../../src/authorize.ts';
import { registerEdge } from '../../src/edge.ts';
import { openMeteoAdapter, registerWeather, WEATHER_CACHE_MS } from '../../src/ext/weather.ts';
import { ApiError } from '../../src/errors.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUser,
  makeTestApp,
  postForm,
  type TestApp,
} from '../helpers/index.ts';

// A local fake of the Open-Meteo forecast API, reached over real HTTP.
let fake: Server;
let fakeUrl = '';
const seen: URL[] = [];
let fail = false;

let app: FastifyInstance;
let t: TestApp; // an embedded server: its store holds the users and sessions the weather route checks
let clock = 1_000_000;

/** A signed-in GET (the administrator's session cookie unless other headers are given). */
const get = (url: string, headers: InjectOptions['headers'] = { cookie: t.admin }) =>
  app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  fake = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url);
    if (fail) {
      res.writeHead(503).end('down');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        latitude: Number(url.searchParams.get('latitude')),
        current_weather: { temperature: 24.5, windspeed: 11.2, weathercode: 3, time: '2026-11-22T00:00' },
      }),
    );
  });
  await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
  const addr = fake.address();
  fakeUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/v1/forecast`;

  t = await makeTestApp();
  app = Fastify();
  await app.register(cookie);
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof ApiError) return reply.status(err.status).type('text/plain').send(err.body);
    return reply.status(500).send('x');
  });
  // the edge parses the query and the gate answers its 400 after the 401, as in the app (issue #27)
  registerEdge(app, t.ctx);
  registerAuthorization(app, t.ctx);
  await registerWeather(app, t.ctx, { adapter: openMeteoAdapter(fakeUrl), now: () => clock });
});
afterAll(async () => {
  await app.close();
  await t.close();
  await new Promise((ok) => fake.close(ok));
});

describe('GET /api/weather', () => {
  it('asks the service for current_weather at the coordinates and answers temperature, wind_speed, weathercode', async () => {
    const res = await get('/api/weather?lat=-23.55&lon=-46.63');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      current_weather: { temperature: 24.5, wind_speed: 11.2, weathercode: 3, time: '2026-11-22T00:00' },
    });
    const q = seen.at(-1)!;
    expect(q.pathname).toBe('/v1/forecast');
    expect(q.searchParams.get('latitude')).toBe('-23.55');
    expect(q.searchParams.get('longitude')).toBe('-46.63');
    expect(q.searchParams.get('current_weather')).toBe('true');
  });

  it('caches per ~1 km cell for 10 minutes', async () => {
    const before = seen.length;
    await get('/api/weather?lat=-23.551&lon=-46.632');
    expect(seen.length).toBe(before);
    clock += WEATHER_CACHE_MS;
    await get('/api/weather?lat=-23.551&lon=-46.632');
    expect(seen.length).toBe(before + 1);
  });

  it('refuses missing or out-of-range coordinates with a clear 400 text', async () => {
    for (const [url, text] of [
      ['/api/weather', 'lat'],
      ['/api/weather?lat=91&lon=0', 'lat must be between -90 and 90'],
      ['/api/weather?lat=0&lon=-181', 'lon must be between -180 and 180'],
      ['/api/weather?lat=abc&lon=0', 'lat'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.body).toContain(text);
    }
  });

  it('answers 502 when the weather service fails', async () => {
    fail = true;
    const res = await get('/api/weather?lat=10&lon=10');
    fail = false;
    expect(res.statusCode).toBe(502);
    expect(res.body).toContain('Weather service unavailable');
  });

  it('answers only signed-in callers: 401 Unauthorized anonymously or with a dead session, nothing asked upstream', async () => {
    const before = seen.length;
    for (const headers of [{}, { cookie: 'JSESSIONID=nope' }, { authorization: 'Bearer nope' }]) {
      const res = await get('/api/weather?lat=1.5&lon=2.5', headers);
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('WebApplicationException: Unauthorized');
    }
    // even a bad query: identity is checked first
    expect((await get('/api/weather?lat=91&lon=0', {})).statusCode).toBe(401);
    expect(seen.length).toBe(before);
  });

  it('accepts a session cookie, Basic credentials and a Bearer token, for any user (not only admins)', async () => {
    const u = await createUser(t);
    expect((await get('/api/weather?lat=3.5&lon=4.5', { cookie: u.cookie })).statusCode).toBe(200);
    const basic = Buffer.from(`${ADMIN_EMAIL}:${ADMIN_PASSWORD}`).toString('base64');
    expect((await get('/api/weather?lat=3.5&lon=4.5', { authorization: `Basic ${basic}` })).statusCode).toBe(
      200,
    );
    const token = await postForm(t.app, u.cookie, '/api/session/token', {});
    expect(token.statusCode).toBe(200);
    const bearer = await get('/api/weather?lat=3.5&lon=4.5', { authorization: `Bearer ${token.body}` });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json()).toHaveProperty('current_weather.temperature', 24.5);
  });

  it('the whole embedded server refuses anonymous weather calls too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/weather?lat=1&lon=1' });
    expect(res.statusCode).toBe(401);
  });
});
