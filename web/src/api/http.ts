// The two HTTP clients of SPEC §7. Every request of the web app goes through here (no fetch elsewhere).
//   api: base /api, 60 s timeout, credentials, statuses < 400 accepted.
//   ext: base /{ns}, 30 s timeout, credentials.
// A failure is an HttpError {status, text}; status 0 means no answer (network down, timeout, aborted).
// Both send Accept-Language with the app's current language, so the server's refusals come back translated.
import { serverErrorText } from '@rastro/domain';
import { i18n } from '../i18n/index.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text ? `${status}: ${text.split('\n')[0]}` : `HTTP ${status}`);
    this.name = 'HttpError';
  }
}

/** Status codes that mean "not signed in" rather than "server broken". */
export const isAuthFailure = (err: unknown): boolean =>
  err instanceof HttpError && (err.status === 401 || err.status === 404);

export type QueryValue = string | number | boolean | null | undefined | Array<string | number | boolean>;
export type Query = Record<string, QueryValue>;

/** Builds a query string; arrays become repeated params (`id=1&id=2`), null/undefined are skipped. */
export function toQueryString(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export interface RawResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

export interface RequestOptions {
  query?: Query;
  /** JSON body (object/array), a URLSearchParams form, FormData, Blob or string. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** 'auto' parses JSON when the response says so, else text. */
  responseType?: 'auto' | 'text' | 'blob';
}

type FetchLike = typeof fetch;

export interface ClientOptions {
  base: string | (() => string);
  timeoutMs: number;
  /** 'include' for our own APIs; third-party services need 'omit'. */
  credentials?: RequestCredentials;
  fetchImpl?: () => FetchLike;
  /** The language asked for answers (Accept-Language), e.g. the app's current language. */
  language?: () => string | undefined;
}

/**
 * The server's own words for a refusal (403: the advanced permission bits and Rastro's role rules, written in the
 * language we asked for), without the `SecurityException: ` prefix; null for any other failure.
 */
export function refusalMessage(err: unknown): string | null {
  if (!(err instanceof HttpError) || err.status !== 403) return null;
  return serverMessage(err);
}

/**
 * The server's first line for any failure (400 bad input, 403 refusal, 404…) as a person reads it: without its
 * `XxxException: ` prefix, Traccar's English refusals ("Write access denied", …) in the app's language (issue
 * #29; the wire keeps Traccar's text); null when there was no answer text (network down, timeout).
 */
export function serverMessage(err: unknown): string | null {
  if (!(err instanceof HttpError) || !err.text) return null;
  return serverErrorText(err.text, i18n.language) || null;
}

/** `: <the server's message>` to follow a failure's own wording, or '' without one. */
export function serverDetail(err: unknown): string {
  const text = serverMessage(err);
  return text ? `: ${text}` : '';
}

function encodeBody(body: unknown, headers: Record<string, string>): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob)
  ) {
    return body as BodyInit;
  }
  headers['Content-Type'] ??= 'application/json';
  return JSON.stringify(body);
}

async function parse(res: Response, type: RequestOptions['responseType']): Promise<unknown> {
  if (res.status === 204) return undefined;
  if (type === 'blob') return res.blob();
  const text = await res.text();
  if (type === 'text' || !text || !res.headers.get('content-type')?.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A client: `request` answers the status and headers too, the others only the data. */
export type HttpClient = ReturnType<typeof createClient>;

export function createClient(options: ClientOptions) {
  const baseOf = () => (typeof options.base === 'function' ? options.base() : options.base);
  const fetchOf = () => (options.fetchImpl ? options.fetchImpl() : fetch);

  async function request<T>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<RawResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json, text/plain, */*' };
    const language = options.language?.();
    if (language) headers['Accept-Language'] = language;
    Object.assign(headers, opts.headers);
    const body = encodeBody(opts.body, headers);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('timeout', 'TimeoutError')),
      options.timeoutMs,
    );
    const onAbort = () => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort);
    let res: Response;
    try {
      res = await fetchOf()(`${baseOf()}${path}${toQueryString(opts.query)}`, {
        method,
        headers,
        body,
        credentials: options.credentials ?? 'include',
        signal: controller.signal,
      });
    } catch (err) {
      const timedOut =
        controller.signal.reason instanceof DOMException && controller.signal.reason.name === 'TimeoutError';
      throw new HttpError(0, timedOut ? 'timeout' : err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
    if (res.status >= 400) {
      const text = await res.text().catch(() => '');
      throw new HttpError(res.status, text);
    }
    const data = (await parse(res, opts.responseType ?? 'auto')) as T;
    return { data, status: res.status, headers: res.headers };
  }

  const call = async <T>(method: string, path: string, opts?: RequestOptions) =>
    (await request<T>(method, path, opts)).data;

  return {
    get base() {
      return baseOf();
    },
    timeoutMs: options.timeoutMs,
    request,
    get: <T>(path: string, query?: Query) => call<T>('GET', path, { query }),
    post: <T>(path: string, body?: unknown, query?: Query) => call<T>('POST', path, { body, query }),
    put: <T>(path: string, body?: unknown, query?: Query) => call<T>('PUT', path, { body, query }),
    del: <T = void>(path: string, query?: Query) => call<T>('DELETE', path, { query }),
    /** POST as application/x-www-form-urlencoded (Traccar's session, token and password calls). */
    postForm: <T>(path: string, fields: Record<string, string | number | boolean | undefined>) => {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, String(v));
      return call<T>('POST', path, { body: form });
    },
  };
}

/** The product namespace ({ns}); a deployment may set it with <meta name="rastro-ns" content="...">. */
export function readNamespace(): string {
  if (typeof document !== 'undefined') {
    const meta = document.querySelector('meta[name="rastro-ns"]')?.getAttribute('content');
    if (meta && /^[a-z][a-z0-9_-]*$/.test(meta)) return meta;
  }
  return 'rastro';
}

export const API_TIMEOUT_MS = 60_000;
export const EXT_TIMEOUT_MS = 30_000;

/** Client B of SPEC §7: the Traccar API. */
export const api = createClient({
  base: '/api',
  timeoutMs: API_TIMEOUT_MS,
  language: () => i18n.language,
});
/** Client A of SPEC §7: the product's extension API under /{ns}. */
export const ext = createClient({
  base: () => `/${readNamespace()}`,
  timeoutMs: EXT_TIMEOUT_MS,
  language: () => i18n.language,
});
