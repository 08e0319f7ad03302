// Server logs: quiet and human-readable by default (one short line per warning or start-up message; each request
// only at LOG_LEVEL=debug), JSON lines for log collectors with LOG_FORMAT=json, and never a secret given in a
// URL: session tokens (`?token=` of /api/session, of API calls and the socket), reset links' and share links'
// tokens (/login/recover/{token}, /share/{token}), passwords, keys and one-time codes are replaced before a line is
// written, in embedded and gateway mode alike.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Writable } from 'node:stream';
import type { Config } from './config.ts';

const SECRET_PARAMS = /([?&;](?:token|passwordreset|password|key|apikey|secret|code|access_token)=)[^&#;]*/gi;
/** Tokens in a path: the password-reset link /login/recover/{token} and a share link /share/{token}. */
const SECRET_PATHS = /(\/login\/recover\/|\/share\/)[^/?#]+/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(SECRET_PATHS, '$1[redacted]');
}

/**
 * A log line's own fields with secrets in addresses replaced: libraries log URLs under their own names (the
 * WebSocket proxy's `url`, the HTTP proxy's `source`), so every top-level string goes through redactUrl.
 */
function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = typeof v === 'string' ? redactUrl(v) : v;
  return out;
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** One pino JSON line as `HH:MM:SS LEVEL message (key=value …)`. */
export function prettyLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, time, msg, pid: _pid, hostname: _host, reqId, req, res, responseTime, err, ...rest } = o;
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
  const parts = [at, (LEVELS[level as number] ?? String(level)).padEnd(5), String(msg ?? '')];
  const r = req as { method?: string; url?: string } | undefined;
  if (r?.method) parts.push(`${r.method} ${r.url ?? ''}`);
  const s = res as { statusCode?: number } | undefined;
  if (s?.statusCode) parts.push(String(s.statusCode));
  if (typeof responseTime === 'number') parts.push(`${responseTime.toFixed(0)} ms`);
  if (reqId && !r?.method) parts.push(`[${String(reqId)}]`);
  const extra = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (extra.length) parts.push(`(${extra.join(', ')})`);
  const e = err as { message?: string; stack?: string } | undefined;
  return `${parts.filter(Boolean).join(' ')}${e ? `\n  ${e.stack ?? e.message ?? ''}` : ''}\n`;
}

/** A stream that writes pino's JSON lines in the pretty form to `out`. */
export function prettyStream(out: NodeJS.WritableStream = process.stdout): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      pending += chunk.toString();
      let i: number;
      while ((i = pending.indexOf('\n')) >= 0) {
        out.write(prettyLine(pending.slice(0, i)));
        pending = pending.slice(i + 1);
      }
      done();
    },
  });
}

/** Fastify logger options: the level, the redacting request serializer, and the output stream. */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logStream' | 'logFormat'>) {
  if (config.logLevel === 'silent') return false;
  const stream = config.logStream ?? (config.logFormat === 'pretty' ? prettyStream() : undefined);
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    formatters: { log: redactFields },
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

/** Each answered request as one debug line (Fastify's own two info lines per request are turned off). */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    req.log.debug({ req, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request');
  });
}
