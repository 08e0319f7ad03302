// Gateway mode: Traccar hands every server attribute to anyone; the gateway filters GET /api/server with the same
// rule as the embedded core (issue #10: secrets only to administrators, map keys only to signed-in users).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

const SERVER = {
  id: 1,
  registration: true,
  bingKey: 'bing-key',
  attributes: { 'rastro.smsApiKey': 'sms-secret', 'rastro.googleKey': 'google-key', speedUnit: 'kmh' },
};

/** A stand-in Traccar: /api/server as Traccar answers it; /api/session knows cookie a=admin and b=user. */
function fakeTraccar(): Promise<Server> {
  const server = createServer((req, res) => {
    const cookie = req.headers.cookie ?? '';
    if (req.url === '/api/server') {
      res.setHeader('content-type', 'application/json');
      return void res.end(JSON.stringify(SERVER));
    }
    if (req.url === '/api/session') {
      if (cookie.includes('JSESSIONID=admin'))
        return void res.end(JSON.stringify({ id: 1, administrator: true, attributes: {} }));
      if (cookie.includes('JSESSIONID=user'))
        return void res.end(JSON.stringify({ id: 2, administrator: false, attributes: {} }));
      res.statusCode = 404;
      return void res.end();
    }
    res.statusCode = 404;
    res.end();
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

describe('gateway GET /api/server', () => {
  let upstream: Server;
  let gateway: FastifyInstance;
  let dir: string;
  beforeAll(async () => {
    upstream = await fakeTraccar();
    dir = mkdtempSync(join(tmpdir(), 'rastro-gw-server-'));
    const config = loadConfig({
      TRACCAR_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      SIM_DEVICES: '0',
      OSMAND_PORT: '0',
    });
    gateway = (await buildApp(config)).app;
    await gateway.ready();
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise((r) => upstream.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (cookie?: string) =>
    gateway.inject({ method: 'GET', url: '/api/server', headers: cookie ? { cookie } : {} });

  it('anonymous: no secret and no map key', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    const s = res.json() as typeof SERVER;
    expect(s.attributes).toEqual({ speedUnit: 'kmh' });
    expect(s.bingKey).toBeNull();
    expect(s.registration).toBe(true);
  });

  it('a signed-in user: map keys, no SMS key; an administrator: everything', async () => {
    const user = (await get('JSESSIONID=user')).json() as typeof SERVER;
    expect(user.attributes).toEqual({ 'rastro.googleKey': 'google-key', speedUnit: 'kmh' });
    expect(user.bingKey).toBe('bing-key');
    const admin = (await get('JSESSIONID=admin')).json() as typeof SERVER;
    expect(admin.attributes).toEqual(SERVER.attributes);
  });
});
