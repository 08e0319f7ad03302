// Issue #27: every route declares its edge (server/src/edge.ts): the schemas of its params, query and body and the
// permission it needs. This test lists every API route the embedded server registers (Fastify's onRoute) and fails on
// one without an edge, on a `/:param` route without a params schema and on a JSON/form POST or PUT without a body
// schema. NOT_YET holds the routes not converted yet: a new route must come with its edge, and a converted route
// must leave the list (the list only shrinks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/index.ts';
import { registeredRoutes, type RouteRecord } from '../../src/edge.ts';

/** Routes still read raw by their handlers (method and url; `{ns}` is the extension namespace). */
const NOT_YET = [
  'GET /api/socket',
  'GET /api/ssl/check',
  'POST /api/ssl/renew',
  'POST /api/ssl/configure-auto-renewal',
  'POST /api/ssl/save-config',
  'GET /{ns}/server/logs',
  'GET /{ns}/users/:id/logs',
  'GET /{ns}/devices/:id/logs',
  'PUT /{ns}/theme',
  'GET /{ns}/assets/custom/images/:file',
  'POST /{ns}/theme/images/:slot',
  'GET /{ns}/integrations',
  'POST /{ns}/integrations/:key',
  'GET /{ns}/invoices',
  'POST /{ns}/invoices',
  'POST /{ns}/invoices/:id/cash',
  'POST /{ns}/invoices/:id/cancel',
  'POST /{ns}/billing/webhook',
  'POST /{ns}/users/:id/suspend',
  'POST /{ns}/users/:id/reactivate',
  'POST /{ns}/billing/trust-unlock',
  'GET /{ns}/shares',
  'POST /{ns}/shares',
  'PUT /{ns}/shares/:id',
  'DELETE /{ns}/shares/:id',
];

describe('every route declares its edge', () => {
  let t: TestApp;
  let routes: RouteRecord[];
  let notYet: Set<string>;
  beforeAll(async () => {
    t = await makeTestApp();
    // the API of the core and of /{ns}, and OsmAnd's POST / (the web app's files are not API routes); HEAD is
    // Fastify's copy of each GET route, with the GET's options
    const ns = t.ctx.config.ns;
    const api = (url: string) => url === '/' || url.startsWith('/api/') || url.startsWith(`/${ns}/`);
    routes = registeredRoutes(t.app).filter((r) => r.method !== 'HEAD' && api(r.url));
    notYet = new Set(NOT_YET.map((r) => r.replace('{ns}', t.ctx.config.ns)));
  });
  afterAll(async () => t.close());

  const key = (r: RouteRecord) => `${r.method} ${r.url}`;

  it('the onRoute listing sees the routes of every part of the server', () => {
    const keys = new Set(routes.map(key));
    for (const r of ['POST /api/commands/send', 'PUT /api/geofences/:id', 'POST /', 'POST /api/session'])
      expect(keys, r).toContain(r);
  });

  it('every route has an edge with a need, or is one of the few not converted yet', () => {
    const missing = routes.filter((r) => !r.edge?.need && !notYet.has(key(r))).map(key);
    expect(missing).toEqual([]);
  });

  it('a route converted since leaves NOT_YET (the list only shrinks)', () => {
    const present = new Map(routes.map((r) => [key(r), r]));
    const stale = [...notYet].filter((k) => !present.has(k) || present.get(k)!.edge);
    expect(stale).toEqual([]);
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
