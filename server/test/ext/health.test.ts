// GET /api/server-health and /api/ssl/* (server/src/ext/health.ts): administrators only, real figures of the
// embedded core (devices by status, position counters, socket clients, database size), the honest SSL answer
// (TLS is the reverse proxy's job), and the gateway's view of its upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateMeter, type ServerHealth, type SslStatus } from '../../src/ext/health.ts';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  ingestPosition,
  makeTestApp,
  startGatewayPair,
  type CreatedUser,
  type GatewayPair,
  type TestApp,
} from '../helpers/index.ts';

describe('RateMeter', () => {
  it('is 0 before two samples', () => {
    const m = new RateMeter(60_000);
    expect(m.perSecond()).toBe(0);
    m.add(1_000, 10);
    expect(m.perSecond()).toBe(0);
  });

  it('averages the counter growth over the samples seen so far', () => {
    const m = new RateMeter(60_000);
    m.add(0, 0);
    m.add(5_000, 50);
    m.add(10_000, 100);
    expect(m.perSecond()).toBe(10);
  });

  it('forgets samples older than the window but keeps one at its start', () => {
    const m = new RateMeter(60_000);
    m.add(0, 0); // 1,000 positions in the first 10 s, then 6 per second
    m.add(10_000, 1_000);
    for (let t = 15_000; t <= 130_000; t += 5_000) m.add(t, 1_000 + ((t - 10_000) / 1000) * 6);
    // window 70 s .. 130 s: 360 positions in 60 s
    expect(m.perSecond()).toBe(6);
  });

  it('a sample at the same instant replaces the last one', () => {
    const m = new RateMeter(60_000);
    m.add(0, 0);
    m.add(10_000, 10);
    m.add(10_000, 30);
    expect(m.perSecond()).toBe(3);
  });
});

describe('embedded mode', () => {
  let t: TestApp;
  let plain: CreatedUser;

  beforeAll(async () => {
    t = await makeTestApp();
    plain = await createUser(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses anonymous callers (401) and non-administrators (400 SecurityException)', async () => {
    for (const path of ['/api/server-health', '/api/ssl/check']) {
      expect((await api(t.app, null, 'GET', path)).statusCode).toBe(401);
      const res = await api(t.app, plain.cookie, 'GET', path);
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe('SecurityException: Administrator access required');
    }
    const renew = await api(t.app, plain.cookie, 'POST', '/api/ssl/renew', { force: true });
    expect(renew.body).toBe('SecurityException: Administrator access required');
  });

  it('reports devices by status, positions, socket clients, database and process figures', async () => {
    const a = await createDevice(t, { uniqueId: 'health-a' });
    await createDevice(t, { uniqueId: 'health-b' });
    await createDevice(t, { uniqueId: 'health-c' });
    const before = expectStatus<ServerHealth>(await api(t.app, t.admin, 'GET', '/api/server-health'), 200);
    expect(before.devices).toEqual({ total: 3, online: 0, offline: 3, unknown: 0 });

    const now = Date.now();
    await ingestPosition(t, { uniqueId: a.uniqueId, fixTime: new Date(now - 2_000) });
    await ingestPosition(t, { uniqueId: a.uniqueId, fixTime: new Date(now - 1_000) });
    const h = expectStatus<ServerHealth>(await api(t.app, t.admin, 'GET', '/api/server-health'), 200);

    expect(h.status).toBe('ok');
    expect(h.mode).toBe('embedded');
    expect(h.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(h.devices).toEqual({ total: 3, online: 1, offline: 2, unknown: 0 });
    expect(h.positions!.stored - before.positions!.stored).toBe(2);
    expect(h.positions!.received - before.positions!.received).toBe(2);
    expect(h.positions!.perSecond).toBeGreaterThanOrEqual(0);
    expect(h.sockets).toEqual({ clients: 0 });
    expect(h.upstream).toBeNull();
    expect(h.database.kind).toBe(t.ctx.store.kind);
    expect(h.database.sizeBytes).toBeGreaterThan(4096);
    expect(h.memory.rss).toBeGreaterThan(h.memory.heapUsed);
    expect(h.memory.systemTotal).toBeGreaterThan(h.memory.systemFree);
    expect(h.disk!.total).toBeGreaterThan(0);
    expect(h.cpus).toBeGreaterThan(0);
    expect(h.loadAverage).toHaveLength(3);
    expect(h.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(h.startedAt)).toBeLessThanOrEqual(Date.parse(h.time));
  });

  it('SSL: the reverse proxy holds the certificate; the protocol is what the proxy reported', async () => {
    const plainHttp = expectStatus<SslStatus>(await api(t.app, t.admin, 'GET', '/api/ssl/check'), 200);
    expect(plainHttp).toMatchObject({ managedBy: 'proxy', protocol: 'http', https: false, renewable: false });

    const proxied = await t.app.inject({
      method: 'GET',
      url: '/api/ssl/check',
      headers: { cookie: t.admin, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'frota.example.com' },
    });
    expect(expectStatus<SslStatus>(proxied, 200)).toEqual({
      managedBy: 'proxy',
      protocol: 'https',
      https: true,
      host: 'frota.example.com',
      renewable: false,
    });
  });

  it('SSL writes answer 400 with the reason, never pretend to renew', async () => {
    const bodies: Array<[string, unknown]> = [
      ['/api/ssl/renew', { force: true }],
      ['/api/ssl/configure-auto-renewal', { enabled: true }],
      ['/api/ssl/save-config', { email: 'x@example.com' }],
    ];
    for (const [path, body] of bodies) {
      const res = await api(t.app, t.admin, 'POST', path, body);
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(
        /^IllegalArgumentException: TLS certificates are managed by the reverse proxy/,
      );
    }
  });
});

describe('gateway mode', () => {
  let pair: GatewayPair;
  beforeAll(async () => {
    pair = await startGatewayPair('rastro-gw-health-');
  });
  afterAll(async () => {
    await pair.close();
  });

  it('answers the upstream administrator with the upstream reachability and no embedded figures', async () => {
    const res = await fetch(`${pair.url}/api/server-health`, { headers: { cookie: pair.upstream.admin } });
    expect(res.status).toBe(200);
    const h = (await res.json()) as ServerHealth;
    expect(h.mode).toBe('gateway');
    expect(h.status).toBe('ok');
    expect(h.upstream).toMatchObject({ reachable: true, status: 200 });
    expect(h.devices).toBeNull();
    expect(h.positions).toBeNull();
    expect(h.database.sizeBytes).toBeGreaterThan(0);

    const anon = await fetch(`${pair.url}/api/server-health`);
    expect(anon.status).toBe(401);
  });
});
