// GET /api/server in gateway mode: Traccar sends every server attribute to anyone, secrets included. Rastro asks
// upstream with the caller's credentials and passes the answer on with the same allow-list as the embedded core
// (packages/domain serverSecrets.ts): listed attributes to anonymous or signed-in callers, all to administrators.
import type { FastifyInstance } from 'fastify';
import { visibleServerAttributes, type Attributes, type ServerViewer } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { edge } from '../edge.ts';
import { ApiError } from '../errors.ts';
import { credentials, upstreamUser } from './identity.ts';

const PASSED_HEADERS = ['licensemode', 'devicelimit', 'cache-control'];

export function registerGatewayServerInfo(
  app: FastifyInstance,
  ctx: AppContext,
  upstream: { origin: string; basePath: string },
): void {
  app.get('/api/server', edge({ need: 'public' }), async (req, reply) => {
    let res: Response;
    try {
      res = await fetch(`${upstream.origin}${upstream.basePath}/api/server`, {
        headers: { ...(credentials(req) ?? {}), accept: 'application/json' },
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new ApiError(502, 'Traccar server unreachable', 'WebApplicationException');
    }
    const text = await res.text();
    for (const h of PASSED_HEADERS) {
      const v = res.headers.get(h);
      if (v !== null) reply.header(h, v);
    }
    if (!res.ok)
      return reply
        .status(res.status)
        .type(res.headers.get('content-type') ?? 'text/plain')
        .send(text);
    let server: Record<string, unknown>;
    try {
      server = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ApiError(
        502,
        'Traccar server answered an unreadable server object',
        'WebApplicationException',
      );
    }
    const user = await upstreamUser(ctx, req);
    const viewer: ServerViewer = user?.administrator ? 'admin' : user ? 'user' : 'anonymous';
    const attributes = (server.attributes ?? {}) as Attributes;
    server.attributes = visibleServerAttributes(attributes, viewer, ctx.config.ns);
    if (viewer === 'anonymous' && 'bingKey' in server) server.bingKey = null;
    return reply.type('application/json; charset=utf-8').send(server);
  });
}
