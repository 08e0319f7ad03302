// Issue #27: every route declares its edge (server/src/edge.ts): the schemas of its params, query and body and the
// permission it needs. This test lists every API route the embedded server registers (Fastify's onRoute) and fails on
// one without an edge, on a `/:param` route without a params schema, on a JSON/form POST or PUT without a body
// schema, and on an exemption other than the CORS preflights and the WebSocket upgrade; in gateway mode too (the
// proxy to Traccar, the server answer, shared links, insights).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/index.ts';
import { startGatewayPair, type GatewayPair } from '../helpers/gateway.ts';
import { registeredRoutes, type RouteRecord } from '../../src/edge.ts';

describe('every route declares its edge', () => {
  let t: TestApp;
  let routes: RouteRecord[];
  beforeAll(async () => {
    t = await makeTestApp();
    // the API of the core and of /{ns}, and OsmAnd's POST / (the web app's files are not API routes); HEAD is
    // Fastify's copy of each GET route, with the GET's options
    const ns = t.ctx.config.ns;
    const api = (url: string) => url === '/' || url.startsWith('/api/') || url.startsWith(`/${ns}/`);
    routes = registeredRoutes(t.app).filter((r) => r.method !== 'HEAD' && api(r.url));
  });
  afterAll(async () => t.close());

  const key = (r: RouteRecord) => `${r.method} ${r.url}`;

  it('the onRoute listing sees the routes of every part of the server', () => {
    const keys = new Set(routes.map(key));
    for (const r of ['POST /api/commands/send', 'PUT /api/geofences/:id', 'POST /', 'POST /api/session'])
      expect(keys, r).toContain(r);
  });

  it('every route has an edge with a need', () => {
    const missing = routes.filter((r) => !r.edge?.need).map(key);
    expect(missing).toEqual([]);
  });

  it('only the CORS preflights and the WebSocket upgrade are exempt, each saying why', () => {
    const ns = t.ctx.config.ns;
    const exempt = routes.filter((r) => r.edge?.need === 'exempt');
    expect(exempt.map((r) => `${key(r)} ${r.edge!.exempt}`).sort()).toEqual(
      [`OPTIONS /${ns}/* preflight`, 'GET /api/socket upgrade', 'OPTIONS /api/* preflight'].sort(),
    );
  });

  it('a route with path parameters parses them, a JSON or form POST/PUT parses its body', () => {
    const bad: string[] = [];
    for (const r of routes) {
      if (!r.edge) continue;
      if (r.url.includes(':') && !r.edge.params) bad.push(`${key(r)}: no params schema`);
      const takesBody = (r.method === 'POST' || r.method === 'PUT') && r.edge.media !== 'raw';
      if (takesBody && !r.edge.body) bad.push(`${key(r)}: no body schema`);
    }
    expect(bad).toEqual([]);
  });
});

describe('every route of gateway mode declares its edge', () => {
  let pair: GatewayPair;
  let routes: RouteRecord[];
  beforeAll(async () => {
    pair = await startGatewayPair('edge-gateway-');
    const api = (url: string) => url.startsWith('/api/') || url.startsWith(`/${pair.ns}/`);
    routes = registeredRoutes(pair.gateway).filter((r) => r.method !== 'HEAD' && api(r.url));
  });
  afterAll(async () => pair.close());

  it('the proxy, the server answer, shared links and insights: each with a need', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    for (const r of [
      'POST /api/*',
      'GET /api/server',
      `PUT /${pair.ns}/shares/:id`,
      `GET /${pair.ns}/dashboard`,
    ])
      expect(keys, r).toContain(r);
    expect(routes.filter((r) => !r.edge?.need).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const unparsed = routes.filter(
      (r) =>
        (r.url.includes(':') && !r.edge?.params) ||
        ((r.method === 'POST' || r.method === 'PUT') && r.edge?.media !== 'raw' && !r.edge?.body),
    );
    expect(unparsed.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});
