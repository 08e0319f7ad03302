// Refusals of Rastro's own rules (advanced permission bits, role rules, the engine-block interlock): HTTP 403
// with a `SecurityException: <text>` body in the caller's language, so Traccar-style clients show the first line
// and the web app shows it as is. Traccar's own contract refusals stay 400 (errors.ts `denied`).
//
// Language: the request's Accept-Language (the web app sends its current language), else the user's `{ns}.lang`,
// else the server's `{ns}.lang` as this request read it (serverFlags.ts: the gate's or its checks' one read of the
// server row; a job's run outside a request, its own read), else pt-BR (SPEC §1). A refusal is built synchronously,
// so it never reads the store itself.
import type { FastifyRequest } from 'fastify';
import {
  formatMessage,
  normalizeLocale,
  type MessageKey,
  type MessageLocale,
  type PermissionAction,
  type PermissionArea,
} from '@rastro/domain';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { serverFlagsRead } from './serverFlags.ts';

type AttributesSource = { attributes?: string | Record<string, unknown> | null } | null | undefined;

function attrsOf(src: AttributesSource): Record<string, unknown> {
  const a = src?.attributes;
  if (!a) return {};
  if (typeof a === 'string') {
    try {
      const parsed: unknown = JSON.parse(a);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return a;
}

/** First supported language of an Accept-Language header, by quality. */
export function acceptLanguage(header: string | undefined): MessageLocale | null {
  if (!header) return null;
  const tags = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const t of tags) {
    const l = normalizeLocale(t.tag);
    if (l) return l;
  }
  return null;
}

/** The language a refusal is written in for this request and user. */
export function requestLanguage(
  ctx: AppContext,
  req: Pick<FastifyRequest, 'headers'> | null,
  user?: AttributesSource,
): MessageLocale {
  const header = req?.headers['accept-language'];
  const fromHeader = acceptLanguage(Array.isArray(header) ? header[0] : header);
  if (fromHeader) return fromHeader;
  const key = `${ctx.config.ns}.lang`;
  for (const v of [attrsOf(user)[key], attrsOf(serverFlagsRead(req))[key]]) {
    const l = typeof v === 'string' ? normalizeLocale(v) : null;
    if (l) return l;
  }
  return 'pt-BR';
}

/** 403 SecurityException with the message `key` in the caller's language. */
export function refused(
  ctx: AppContext,
  req: Pick<FastifyRequest, 'headers'> | null,
  user: AttributesSource,
  key: MessageKey,
  values: Record<string, string | number> = {},
): ApiError {
  return new ApiError(403, formatMessage(key, requestLanguage(ctx, req, user), values), 'SecurityException');
}

/** 403 for an advanced permission bit (area × action) that the caller lacks. */
export function refusedPermission(
  ctx: AppContext,
  req: Pick<FastifyRequest, 'headers'> | null,
  user: AttributesSource,
  area: PermissionArea,
  action: PermissionAction,
): ApiError {
  const lang = requestLanguage(ctx, req, user);
  return new ApiError(
    403,
    formatMessage('denied.permission', lang, {
      action: formatMessage(`permissions.action.${action}`, lang),
      area: formatMessage(`permissions.area.${area}`, lang),
    }),
    'SecurityException',
  );
}
