// Gateway mode (issue #27): CORS by WEB_ORIGIN on every path, preflight included, never the upstream's own origin;
// a socket upgrade without identity refused with HTTP 401 before the upgrade (not accepted, then closed 1011);
// no token in the gateway's log lines.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { socketCredentials, withoutUpstreamCors } from '../../src/gateway/index.ts';
import { startGatewayPair, type GatewayPair } from '../helpers/gateway.ts';

const WEB = 'https://dash.example.com';
const lines: string[] = [];
let pair: GatewayPair;
let gw: string;
let upstreamOrigin: string;

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  pair = await startGatewayPair('rastro-gw-cors-', {}, { webOrigins: [WEB], logLevel: 'trace', logStream });
  gw = pair.url;
  upstreamOrigin = new URL(pair.gatewayCtx.config.traccarUrl!).origin;
});
afterAll(() => pair.close());

async function login(): Promise<string> {
  const res = await fetch(`${gw}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: WEB },
    body: new URLSearchParams({ email: 'admin', password: 'admin' }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

async function apiToken(cookie: string): Promise<string> {
  const res = await fetch(`${gw}/api/session/token`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  expect(res.status).toBe(200);
  return (await res.text()).trim();
}

/** How an upgrade ends: `open` (and the first message), or the HTTP status it was refused with. */
function upgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; first?: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('message', (data: WebSocket.RawData) => {
      resolve({ status: 101, first: data.toString() });
      ws.close();
    });
    ws.once('close', (code) => reject(new Error(`upgraded, then closed ${code}`)));
    ws.once('error', (err) => reject(err));
  });
}

describe('gateway CORS by WEB_ORIGIN', () => {
  it('finding: a proxied answer names the configured web origin, never the upstream origin', async () => {
    const cookie = await login();
    const res = await fetch(`${gw}/api/devices`, { headers: { cookie, origin: WEB } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(String(res.headers.get('vary'))).toMatch(/origin/i);
    const server = await fetch(`${gw}/api/server`, { headers: { origin: WEB } });
    expect(server.headers.get('access-control-allow-origin')).toBe(WEB);
    // an extension path of Rastro's own
    const ext = await fetch(`${gw}/${pair.ns}/shares`, { headers: { cookie, origin: WEB } });
    expect(ext.headers.get('access-control-allow-origin')).toBe(WEB);
  });

  it('finding: an origin not listed gets no allow-origin header, not the upstream one', async () => {
    const cookie = await login();
    for (const url of [`${gw}/api/devices`, `${gw}/api/server`]) {
      const res = await fetch(url, { headers: { cookie, origin: 'https://evil.example.net' } });
      expect(res.headers.get('access-control-allow-origin'), url).toBeNull();
    }
    const res = await fetch(`${gw}/api/devices`, { headers: { cookie, origin: WEB } });
    expect(res.headers.get('access-control-allow-origin')).not.toBe(upstreamOrigin);
  });

  it('finding: preflight OPTIONS is answered by the gateway for the configured origin, on /api and /{ns}', async () => {
    for (const path of ['/api/devices/1', '/api/session', `/${pair.ns}/shares`]) {
      const res = await fetch(`${gw}${path}`, {
        method: 'OPTIONS',
        headers: { origin: WEB, 'access-control-request-method': 'PUT' },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe(WEB);
      expect(String(res.headers.get('access-control-allow-methods')), path).toContain('PUT');
      const other = await fetch(`${gw}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'PUT' },
      });
      expect(other.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  it('upstream CORS headers are dropped; Vary keeps Origin', () => {
    expect(
      withoutUpstreamCors(
        {
          'access-control-allow-origin': 'http://up',
          'Access-Control-Allow-Credentials': 'true',
          vary: 'Accept',
        },
        WEB,
      ),
    ).toEqual({ vary: 'Accept, Origin' });
    expect(withoutUpstreamCors({ 'content-type': 'text/plain' }, undefined)).toEqual({
      'content-type': 'text/plain',
    });
  });
});

describe('gateway socket identity', () => {
  const ws = () => `${gw.replace('http', 'ws')}/api/socket`;

  it('finding: no cookie and no token ⇒ HTTP 401 before the upgrade', async () => {
    expect(await upgrade(ws())).toEqual({ status: 401 });
  });

  it('finding: a dead session or a wrong token ⇒ HTTP 401 before the upgrade', async () => {
    expect(await upgrade(ws(), { cookie: 'JSESSIONID=nope' })).toEqual({ status: 401 });
    expect(await upgrade(`${ws()}?token=not-a-token`)).toEqual({ status: 401 });
  });

  it('a session or a token opens the socket, and the token never reaches the log', async () => {
    const cookie = await login();
    const withCookie = await upgrade(ws(), { cookie, origin: gw });
    expect(withCookie.status).toBe(101);
    expect(JSON.parse(withCookie.first!)).toHaveProperty('positions');
    const token = await apiToken(cookie);
    const from = lines.length;
    const withToken = await upgrade(`${ws()}?token=${encodeURIComponent(token)}`);
    expect(withToken.status).toBe(101);
    // a token in an API call's query string (proxied as it came, whatever upstream answers)
    await fetch(`${gw}/api/devices?token=${encodeURIComponent(token)}`);
    await fetch(`${gw}/share/${token}`);
    const log = lines.slice(from).join('');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(token);
    expect(log).not.toContain(encodeURIComponent(token));
  });

  it('socketCredentials: cookie or Authorization as sent, else ?token= as a Bearer token', () => {
    expect(socketCredentials({ url: '/api/socket?token=abc', headers: {} }).headers).toEqual({
      authorization: 'Bearer abc',
    });
    expect(socketCredentials({ url: '/api/socket?token=abc', headers: { cookie: 'a=1' } }).headers).toEqual({
      cookie: 'a=1',
    });
    expect(socketCredentials({ url: '/api/socket', headers: {} }).headers).toEqual({});
  });
});
