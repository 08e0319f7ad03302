import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGatewayPair, type GatewayPair } from '../helpers/gateway.ts';
import type { AppContext } from '../../src/context.ts';
import { rewriteSetCookie, stripCookieAttributes, upstreamOf } from '../../src/gateway/index.ts';
import { identityStats, upstreamUser } from '../../src/gateway/identity.ts';
import { count } from '../support/testSql.ts';

let gatewayCtx: AppContext;
let gw: string; // http://127.0.0.1:port of the gateway

let pair: GatewayPair | undefined;

beforeAll(async () => {
  pair = await startGatewayPair('rastro-gw-');
  ({ gatewayCtx, url: gw } = pair);
});

afterAll(async () => {
  await pair?.close();
});

async function loginThroughGateway(withOrigin: boolean): Promise<{ cookie: string; setCookie: string }> {
  const res = await fetch(`${gw}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withOrigin ? { origin: gw } : {}) },
    body: new URLSearchParams({ email: 'admin', password: 'admin' }),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/JSESSIONID=/);
  return { cookie: setCookie.split(';')[0], setCookie };
}

describe('gateway mode: /api proxied to an upstream Traccar (here: our own embedded server)', () => {
  it('the embedded core does not run in the gateway: no store-backed session there, everything comes from upstream', async () => {
    const { cookie } = await loginThroughGateway(true);
    const me = await fetch(`${gw}/api/session`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('admin');
    // the gateway's own store has no users: the answer came from upstream
    expect(await count(gatewayCtx.store.sql, 'users')).toBe(0);
  });

  it('login, lists and writes through the proxy with a browser Origin (rewritten to the upstream origin)', async () => {
    const { cookie, setCookie } = await loginThroughGateway(true);
    expect(setCookie).not.toMatch(/domain=/i);
    const created = await fetch(`${gw}/api/devices`, {
      method: 'POST',
      headers: { cookie, origin: gw, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Via gateway', uniqueId: 'gw-1' }),
    });
    expect(created.status).toBe(200);
    const list = await fetch(`${gw}/api/devices`, { headers: { cookie, origin: gw } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as Array<{ uniqueId: string }>).map((d) => d.uniqueId)).toContain('gw-1');
  });

  it('a session made without Origin still accepts browser writes (Origin host = upstream Host after rewrite)', async () => {
    const { cookie } = await loginThroughGateway(false);
    const res = await fetch(`${gw}/api/groups`, {
      method: 'POST',
      headers: { cookie, origin: gw, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Grupo gateway' }),
    });
    expect(res.status).toBe(200);
  });

  it('errors pass through unchanged (401 without a session, 400 texts)', async () => {
    expect((await fetch(`${gw}/api/devices`)).status).toBe(401);
    const { cookie } = await loginThroughGateway(true);
    const bad = await fetch(`${gw}/api/devices/999999`, { headers: { cookie } });
    expect([400, 404]).toContain(bad.status);
  });

  it('the WebSocket /api/socket is proxied with the cookie and answers the first positions message', async () => {
    const { cookie } = await loginThroughGateway(true);
    const ws = new WebSocket(`${gw.replace('http', 'ws')}/api/socket`, { headers: { cookie, origin: gw } });
    const first = await new Promise<string>((resolve, reject) => {
      ws.once('message', (data: WebSocket.RawData) => resolve(data.toString()));
      ws.once('error', reject);
      ws.once('close', (code) => reject(new Error(`closed before any message: ${code}`)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    expect(JSON.parse(first)).toHaveProperty('positions');
    ws.close();
  });

  it('the socket without a session is refused upstream', async () => {
    const ws = new WebSocket(`${gw.replace('http', 'ws')}/api/socket`);
    const outcome = await new Promise<string>((resolve) => {
      ws.once('open', () => ws.once('close', () => resolve('closed')));
      ws.once('error', () => resolve('error'));
      ws.once('unexpected-response', () => resolve('refused'));
    });
    expect(['closed', 'error', 'refused']).toContain(outcome);
  });
});

describe('upstream identity for the extension API', () => {
  it('asks GET /api/session with the caller cookie and caches the answer ~10 s', async () => {
    const { cookie } = await loginThroughGateway(true);
    const before = identityStats.upstreamCalls;
    const now = Date.now();
    const a = await upstreamUser(gatewayCtx, { headers: { cookie } }, now);
    const b = await upstreamUser(gatewayCtx, { headers: { cookie } }, now + 5_000);
    expect(a?.email).toBe('admin');
    expect(b?.id).toBe(a?.id);
    expect(identityStats.upstreamCalls - before).toBe(1);
    await upstreamUser(gatewayCtx, { headers: { cookie } }, now + 11_000);
    expect(identityStats.upstreamCalls - before).toBe(2);
  });
  it('no credentials or a dead session ⇒ null', async () => {
    expect(await upstreamUser(gatewayCtx, { headers: {} })).toBeNull();
    expect(await upstreamUser(gatewayCtx, { headers: { cookie: 'JSESSIONID=nope' } })).toBeNull();
  });
});

describe('cookie and URL rewriting', () => {
  it('strips Domain and Secure, keeps the rest', () => {
    expect(
      stripCookieAttributes(
        'JSESSIONID=abc; Path=/; Domain=traccar.example.com; Secure; HttpOnly; SameSite=None',
      ),
    ).toBe('JSESSIONID=abc; Path=/; HttpOnly; SameSite=None');
    expect(rewriteSetCookie(['a=1; Secure', 'b=2; domain=x'])).toEqual(['a=1', 'b=2']);
  });
  it('keeps a path prefix of TRACCAR_URL', () => {
    expect(upstreamOf('https://gps.example.com/traccar/')).toEqual({
      origin: 'https://gps.example.com',
      basePath: '/traccar',
    });
  });
});
