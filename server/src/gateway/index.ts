// Gateway mode (CONTRACT §14): /api/* and the /api/socket WebSocket are proxied to TRACCAR_URL. Cookies pass
// untouched; Set-Cookie loses Domain and Secure (the browser talks to us, maybe over plain HTTP); a browser's
// Origin is replaced by the upstream origin, so Traccar's session origin check sees one consistent origin.
// Routes registered later with a fixed path (the extension API's /api/weather, /api/server-health, /api/ssl/*)
// win over the proxy's wildcard.
// CORS is Rastro's own, by WEB_ORIGIN, on every /api and /{ns} path (the embedded rule, traccar/server.ts): the
// upstream's access-control headers, made for the rewritten upstream Origin, never reach the browser, and
// preflight OPTIONS is answered here. A socket upgrade nobody signed (no session upstream, no valid ?token=) gets
// HTTP 401 before the upgrade. Request lines carry no token (logging.ts); the proxy's own lines are off.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientOptions } from 'ws';
import proxy from '@fastify/http-proxy';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../context.ts';
import { corsHeaders } from '../cors.ts';
import type { EdgeSpec } from '../edge.ts';
import { upstreamUser } from './identity.ts';
import { registerGatewayServerInfo } from './serverInfo.ts';
import { upstreamOf } from './upstream.ts';

export { upstreamOf };

type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Set-Cookie without `Domain=` and `Secure` attributes. */
export function stripCookieAttributes(value: string): string {
  return value
    .split(';')
    .map((part) => part.trim())
    .filter((part, i) => i === 0 || !/^(domain\s*=|secure$)/i.test(part))
    .join('; ');
}

export function rewriteSetCookie(
  header: string | string[] | number | undefined,
): string | string[] | number | undefined {
  if (Array.isArray(header)) return header.map(stripCookieAttributes);
  if (typeof header === 'string') return stripCookieAttributes(header);
  return header;
}

/** Upstream response headers without its CORS answer (Rastro gives its own); Vary keeps Origin when it was asked. */
export function withoutUpstreamCors(
  headers: IncomingHttpHeaders,
  requestOrigin: string | undefined,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers))
    if (!k.toLowerCase().startsWith('access-control-')) out[k] = v;
  if (requestOrigin) {
    const vary = String(out.vary ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!vary.some((v) => v.toLowerCase() === 'origin' || v === '*'))
      out.vary = [...vary, 'Origin'].join(', ');
  }
  return out;
}

/**
 * The credentials a socket upgrade brings: its cookie or Authorization header, else its `?token=` as the Bearer
 * token Traccar accepts on any request (asking GET /api/session?token= would open a session upstream).
 */
export function socketCredentials(
  req: Pick<FastifyRequest, 'headers' | 'url'>,
): Pick<FastifyRequest, 'headers'> {
  const { cookie, authorization } = req.headers;
  if (cookie || authorization) return req;
  const token = new URLSearchParams(req.url.split('?')[1] ?? '').get('token');
  return { headers: token ? { authorization: `Bearer ${token}` } : {} };
}

export async function registerGateway(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const url = ctx.config.traccarUrl;
  if (!url) throw new Error('gateway mode needs TRACCAR_URL');
  const { origin, basePath } = upstreamOf(url);

  const withOrigin = (headers: IncomingHttpHeaders): IncomingHttpHeaders => {
    const out = { ...headers };
    out.host = new URL(origin).host;
    if (out.origin) out.origin = origin;
    if (out.referer) delete out.referer;
    return out;
  };

  // The plugin's runtime accepts rewriteRequestHeaders for the outgoing socket; its type definitions lag behind.
  const wsClientOptions = {
    rewriteRequestHeaders: (headers: Record<string, string>, request: FastifyRequest) => {
      const out: Record<string, string> = { ...headers };
      if (request.headers.cookie) out.cookie = request.headers.cookie;
      if (request.headers.authorization) out.authorization = request.headers.authorization;
      out.origin = origin;
      return out;
    },
  } as unknown as ClientOptions;

  const ours = (url: string) =>
    url.startsWith('/api/') || url === '/api' || url.startsWith(`/${ctx.config.ns}/`);
  app.addHook('onRequest', async (req, reply) => {
    if (!ours(req.url)) return;
    corsHeaders(ctx, req, reply);
    if (req.method === 'OPTIONS') return reply.status(204).send();
    const path = req.url.split('?', 1)[0];
    if (path === '/api/socket' && String(req.headers.upgrade ?? '').toLowerCase() === 'websocket') {
      if (!(await upstreamUser(ctx, socketCredentials(req))))
        return reply.status(401).type('text/plain; charset=utf-8').send('Unauthorized');
    }
  });

  const before = app.server.listeners('upgrade') as UpgradeListener[];
  await app.register(async (scope) => {
    // The proxy streams request bodies as they came: the root form parser must not consume login forms.
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    await scope.register(proxy, {
      upstream: origin,
      prefix: '/api',
      rewritePrefix: `${basePath}/api`,
      // the edge of every proxied route: the upstream Traccar parses and answers the request; the gate asks the
      // table with the buffered body, whose command type it normalises (authorize.ts)
      config: { edge: { need: 'table', media: 'raw' } satisfies EdgeSpec },
      websocket: true,
      // reply-from's own info lines name the upstream URL, query string and token included
      disableRequestLogging: true,
      replyOptions: {
        rewriteRequestHeaders: (_req, headers) => withOrigin(headers),
        rewriteHeaders: (headers, req) => {
          const origin = req?.headers.origin;
          const out = withoutUpstreamCors(headers, typeof origin === 'string' && origin ? origin : undefined);
          if (out['set-cookie'] !== undefined)
            out['set-cookie'] = rewriteSetCookie(out['set-cookie']) as string[];
          return out;
        },
      },
      wsClientOptions,
    });
  });
  // Both @fastify/websocket and the proxy listen for upgrades; give /api upgrades to the proxy only and the rest
  // (extension sockets) to @fastify/websocket, so one socket is never handled twice.
  const added = (app.server.listeners('upgrade') as UpgradeListener[]).filter((l) => !before.includes(l));
  app.server.removeAllListeners('upgrade');
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const mine = path === '/api' || path.startsWith('/api/');
    for (const l of mine ? added : before) l(req, socket, head);
  });
  registerGatewayServerInfo(app, ctx, { origin, basePath });
  ctx.log.info({ upstream: `${origin}${basePath}` }, 'gateway mode: /api proxied');
}
