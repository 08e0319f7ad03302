// Request logs never carry secrets given in a URL: session tokens (`?token=` of /api/session and the socket),
// password-reset tokens, passwords, keys and one-time codes are replaced before a line is written.
import type { FastifyRequest } from 'fastify';
import type { Config } from './config.ts';

const SECRET_PARAMS = /([?&;](?:token|passwordreset|password|key|apikey|secret|code|access_token)=)[^&#;]*/gi;
/** Tokens in a path, e.g. the password-reset link /login/recover/{token}. */
const SECRET_PATHS = /(\/login\/recover\/)[^/?#]+/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(SECRET_PATHS, '$1[redacted]');
}

/** Fastify logger options: the level, the redacting request serializer and, in tests, a stream to read. */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logStream'>) {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    ...(config.logStream ? { stream: config.logStream } : {}),
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
    },
  };
}
