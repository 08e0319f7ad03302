// Gateway mode (CONTRACT §14): /api/* and the /api/socket WebSocket are proxied to TRACCAR_URL. Cookies pass
// untouched; Set-Cookie loses Domain and Secure (the browser talks to us, maybe over plain HTTP); a browser's
// Origin is replaced by the upstream origin, so Traccar's session origin check sees one consistent origin.
// Routes registered later with a fixed path (the extension API's /api/weather, /api/server-health, /api/ssl/*)
// win over the proxy's wildcard.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientOptions } from 'ws';
import proxy from '@fastify/http-proxy';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../context.ts';
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

  const before = app.server.listeners('upgrade') as UpgradeListener[];
  await app.register(async (scope) => {
    // The proxy streams request bodies as they came: the root form parser must not consume login forms.
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    await scope.register(proxy, {
      upstream: origin,
      prefix: '/api',
      rewritePrefix: `${basePath}/api`,
      websocket: true,
      replyOptions: {
        rewriteRequestHeaders: (_req, headers) => withOrigin(headers),
        rewriteHeaders: (headers) => {
          const out = { ...headers };
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
