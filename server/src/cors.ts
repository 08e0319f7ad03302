// CORS (CONTRACT §1, Traccar's web.origin), one rule for both modes: the embedded core's /api and /{ns} answers
// (traccar/server.ts) and the gateway's, where the upstream's own CORS answer is replaced by this one
// (gateway/index.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';

const CORS_HEADERS = {
  'access-control-allow-headers': 'origin, content-type, accept, authorization',
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-expose-headers': 'licensemode, devicelimit',
};

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return (
      !!host && new URL(origin).hostname.toLowerCase() === new URL(`http://${host}`).hostname.toLowerCase()
    );
  } catch {
    return false;
  }
}

/**
 * `*` without an Origin header; with one, the origin is echoed when it is the app's own host name or listed in
 * WEB_ORIGIN (`*` there allows any origin). Others get no allow-origin header.
 */
export function corsHeaders(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): void {
  reply.headers(CORS_HEADERS);
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === '') reply.header('access-control-allow-origin', '*');
  else if (originAllowed(ctx.config.webOrigins, origin, req.headers.host)) {
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  }
}

function originAllowed(allowed: readonly string[], origin: string, host: string | undefined): boolean {
  if (sameHost(origin, host) || allowed.includes('*')) return true;
  try {
    return allowed.includes(new URL(origin).origin.toLowerCase());
  } catch {
    return false;
  }
}
