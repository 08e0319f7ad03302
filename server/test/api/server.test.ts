import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

type Obj = Record<string, unknown>;

describe('server resource and transport (CONTRACT §1, §3 Server, §4)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ edition: 'basic', deviceLimit: 50 });
  });
  afterAll(async () => t.close());

  it('GET /api/server is public, complete, with the edition headers', async () => {
    const res = await api(t.app, null, 'GET', '/api/server');
    const s = expectStatus<Obj>(res, 200);
    expect(res.headers.licensemode).toBe('basic');
    expect(res.headers.devicelimit).toBe('50');
    expect(String(res.headers['access-control-expose-headers'])).toContain('licensemode');
    expect(s).toMatchObject({
      id: 1,
      attributes: {},
      registration: false,
      readonly: false,
      map: null,
      latitude: 0,
      zoom: 0,
      emailEnabled: false,
      textEnabled: false,
      geocoderEnabled: false,
      storageSpace: null,
      newServer: false,
      openIdEnabled: false,
      openIdForce: false,
    });
    expect(typeof s.version).toBe('string');
    const admin = expectStatus<Obj>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expect(Array.isArray(admin.storageSpace)).toBe(true);
    expect((admin.storageSpace as number[]).length).toBe(2);
  });

  it('PUT /api/server: admin only, full replacement, computed fields ignored', async () => {
    const u = await createUser(t);
    const s = expectStatus<Obj>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    const denied = await api(t.app, u.cookie, 'PUT', '/api/server', { ...s, registration: true });
    expect(denied.statusCode).toBe(400);
    expect(denied.body).toBe('SecurityException: Administrator access required');
    const res = await api(t.app, t.admin, 'PUT', '/api/server', {
      ...s,
      map: 'osm',
      latitude: -23.55,
      longitude: -46.63,
      zoom: 12,
      attributes: { speedUnit: 'kmh', timezone: 'America/Sao_Paulo' },
      newServer: true,
      version: 'x',
    });
    expect(res.headers.licensemode).toBe('basic');
    const put = expectStatus<Obj>(res, 200);
    expect(put).toMatchObject({
      map: 'osm',
      latitude: -23.55,
      zoom: 12,
      newServer: false,
      attributes: { speedUnit: 'kmh' },
    });
    expect(put.version).not.toBe('x');
    const bad = await api(t.app, t.admin, 'PUT', '/api/server', { ...s, zoom: 'far' });
    expect(bad.statusCode).toBe(400);
  });

  it('GET /api/server/timezones lists zone ids', async () => {
    const zones = expectStatus<string[]>(await api(t.app, t.admin, 'GET', '/api/server/timezones'), 200);
    expect(zones).toContain('UTC');
    expect(zones).toContain('America/Sao_Paulo');
    expect(zones).toContain('Europe/Paris');
  });

  it('GET /api/health answers OK without auth', async () => {
    const res = await api(t.app, null, 'GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('POST /api/server/reboot: admin only, not supported in embedded mode', async () => {
    const u = await createUser(t);
    expect((await api(t.app, u.cookie, 'POST', '/api/server/reboot')).body).toBe(
      'SecurityException: Administrator access required',
    );
    const res = await api(t.app, t.admin, 'POST', '/api/server/reboot');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Not supported in embedded mode');
  });

  it('CORS headers on API answers; OPTIONS bypasses auth', async () => {
    const res = await api(t.app, null, 'GET', '/api/devices');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-headers']).toBe('origin, content-type, accept, authorization');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE, OPTIONS');
    const pre = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/devices',
      headers: { origin: 'http://localhost' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('http://localhost');
    const foreign = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/devices',
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('features the embedded server does not have answer 400 as Traccar does without them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('geocode without a geocoder, OpenID without configuration', async () => {
    const geo = await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=1&longitude=2');
    expect(geo.statusCode).toBe(400);
    expect(geo.body).toContain('Geocoder is disabled');
    expect((await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=x')).body).toContain(
      'latitude is required',
    );
    const oid = await api(t.app, null, 'GET', '/api/session/openid/auth');
    expect(oid.statusCode).toBe(400);
    expect(oid.body).toContain('OpenID is not configured');
  });
});
