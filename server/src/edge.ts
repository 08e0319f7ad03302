// The one edge of every request (issue #27, docs/security.md "The edge"): a route declares, in its options, the
// schemas of its params, query and body, the media its body comes in and the permission it needs:
//
//   app.post('/api/commands/send', edge({ body: commandBody, query: groupQuery, need: 'table' }), handler)
//
// A preValidation hook checks the media (415), parses params, query and body once with the declared schemas
// (bad input ⇒ 400) and puts the parsed values in place of the raw ones, so the permission gate (authorize.ts), the
// engine-block interlock and the handler all read the same normalised request and nothing after the edge sees the
// raw one. Body sizes are bounded by Fastify's bodyLimit (app.ts, or the route's own) with 413.
//
// Bad input answers `IllegalArgumentException: <field>: <problem>` (zod), or, for a route declaring `invalid`, that
// message of the catalogue in the caller's language (the translated-400 hook; the caller's own language is known
// once the gate has found the caller, so the 400 is built there).
//
// Every registered route is recorded (onRoute) so a test can list them and refuse one without an edge.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { describeZodError, isMessageKey, type ApiRequirement, type MessageKey } from '@rastro/domain';
import type { AppContext } from './context.ts';
import { ApiError, badRequest } from './errors.ts';
import { invalidInput } from './invalid.ts';
import { registerServerFlagsScope, requestServerFlags } from './serverFlags.ts';

/**
 * What a route's body may be: JSON (default); a form or JSON (Traccar's form routes); a form only (POST
 * /api/session: JSON ⇒ 415, CONTRACT §1); or its own parser's (raw bytes, streams).
 */
export type EdgeMedia = 'json' | 'form' | 'formOnly' | 'raw';

/** The parsed request a requirement function reads. */
export interface EdgeRequest {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** Roles the gate checks itself (Traccar's texts: 400 `Administrator access required` / `Manager access required`). */
export type EdgeRole = 'administrator' | 'manager';

/**
 * The permission a route needs:
 *   'table'         the one table of requirements (domain apiPermission), asked with the parsed request;
 *   'public'        anyone, signed in or not (the route itself decides, e.g. login, OsmAnd reports);
 *   'signedIn'      any signed-in user, the route applies Traccar's own rules (readonly, links…) only;
 *   'administrator' a signed-in administrator (401 without a caller, 400 SecurityException otherwise);
 *   'manager'       a signed-in administrator or manager (userLimit ≠ 0), same answers;
 *   'exempt'        not a request the edge can parse: a CORS preflight or the WebSocket upgrade (`exempt` says
 *                   which); nothing is parsed, the route answers alone;
 *   an ApiRequirement, or a function of the parsed request giving one (null: none).
 */
export type EdgeNeed =
  | 'table'
  | 'public'
  | 'signedIn'
  | 'exempt'
  | EdgeRole
  | ApiRequirement
  | ((req: EdgeRequest) => ApiRequirement | null);

export interface EdgeSpec {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Default 'json'. */
  media?: EdgeMedia;
  /** A body that is not a JSON object (an array) is parsed too; by default only objects reach `body`. */
  anyBody?: boolean;
  need: EdgeNeed;
  /** A role the caller needs besides `need` (checked after the permission bit): e.g. 'table' and 'manager'. */
  role?: EdgeRole;
  /**
   * The translated-400 hook: bad input answers this catalogue message in the caller's language (refusal.ts's
   * choice), or the first problem's own message when the schema names a catalogue key (a refine's message); a
   * function chooses the message by the name of the field in trouble ('' for the body as a whole).
   */
  invalid?: MessageKey | ((field: string) => MessageKey);
  /**
   * A 'table' route that also serves callers not signed in (registration, POST /api/users): its bad input is
   * answered to them too, instead of 401.
   */
  anonymous?: boolean;
  /** Why a route is exempt (need 'exempt'): 'preflight' (OPTIONS) or 'upgrade' (the WebSocket). */
  exempt?: 'preflight' | 'upgrade';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    edge?: EdgeSpec;
  }
}

/** The route options declaring an edge: `app.get(url, edge({...}), handler)`. */
export function edge(spec: EdgeSpec): { config: { edge: EdgeSpec } } {
  return { config: { edge: spec } };
}

/** The values the edge parsed, typed by the route's schemas (the handler's view of the request). */
export function edgeValue<S extends z.ZodType>(_schema: S, value: unknown): z.output<S> {
  return value as z.output<S>;
}

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

const unsupported = () => new ApiError(415, 'Unsupported Media Type', 'NotSupportedException');

function mediaOf(req: FastifyRequest): EdgeMedia {
  const declared = req.routeOptions.config?.edge?.media;
  if (declared) return declared;
  // routes with their own parser get the raw bytes (images, theme files) or the stream (the gateway's proxy)
  return Buffer.isBuffer(req.body) || req.body instanceof Readable ? 'raw' : 'json';
}

/** 415 for a body the route does not take (a form or text on a JSON route). */
function checkMedia(req: FastifyRequest): void {
  if (req.is404) return;
  const type = String(req.headers['content-type'] ?? '').trim();
  const media = mediaOf(req);
  // a form-only route refuses anything else, a body or not (Traccar's POST /api/session)
  if (media === 'formOnly') {
    if (!FORM_TYPE.test(type)) throw unsupported();
    return;
  }
  if (req.body === undefined || req.body === null) return;
  // an empty body of any declared type is no body (clients that always send a form content type)
  if (!req.headers['transfer-encoding'] && !(Number(req.headers['content-length']) > 0)) return;
  if (media === 'raw') return;
  if (JSON_TYPE.test(type)) return;
  if (media === 'form' && FORM_TYPE.test(type)) return;
  throw unsupported();
}

/** A form's fields (a repeated field keeps its first value); no body is no fields. */
function formFields(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}

/** A failed parse: the zod text, or the route's catalogue message (`invalid`) once the caller is known. */
class EdgeInputError extends Error {
  constructor(
    readonly text: string,
    readonly key?: MessageKey,
  ) {
    super(text);
  }
}

type Invalid = EdgeSpec['invalid'];

/** The catalogue key of a bad input: the problem's own when it is one, else the route's (by the field's name). */
function invalidKey(invalid: Invalid, message: string, field: string): MessageKey | undefined {
  if (isMessageKey(message)) return message;
  return typeof invalid === 'function' ? invalid(field) : invalid;
}

function parsePart(schema: z.ZodType, data: unknown, invalid: Invalid): unknown {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const key = invalidKey(invalid, issue?.message ?? '', String(issue?.path[0] ?? ''));
  throw new EdgeInputError(describeZodError(r.error), key);
}

/** Parses all three first and replaces them only when all three are valid (a failure leaves the raw request). */
function parseEdge(req: FastifyRequest, spec: EdgeSpec): void {
  const { invalid } = spec;
  const params: unknown = spec.params ? parsePart(spec.params, req.params ?? {}, invalid) : req.params;
  const query: unknown = spec.query ? parsePart(spec.query, req.query ?? {}, invalid) : req.query;
  let body: unknown = req.body;
  if (spec.body) {
    if (spec.media === 'form' || spec.media === 'formOnly') body = formFields(body);
    const objectOnly = !spec.anyBody && spec.body !== noBody;
    if (objectOnly && (!body || typeof body !== 'object' || Array.isArray(body)))
      throw new EdgeInputError('expected a JSON object body', invalidKey(invalid, '', ''));
    if (body && typeof body === 'object' && !Array.isArray(body))
      bodyKeys.set(req, new Set(Object.keys(body)));
    body = parsePart(spec.body, body, invalid);
  }
  req.params = params;
  req.query = query;
  req.body = body;
}

const bodyKeys = new WeakMap<FastifyRequest, ReadonlySet<string>>();

/**
 * The keys the request's body object carried, before its schema added defaults: the fail-closed merges of PUT
 * /api/server and PUT /api/users/{id} keep the stored value of a key left out (domain keepAbsentFields).
 */
export function edgeBodyKeys(req: FastifyRequest): ReadonlySet<string> {
  return bodyKeys.get(req) ?? new Set();
}

/** The caller a translated 400 is written for (its language attribute), when known. */
type Reader = Parameters<typeof invalidInput>[2];

// Bad input of a route that needs a caller answers after the caller is known (401 first, as Traccar does) and
// after the permission gate (403 first): authorize.ts throws it then. A public route answers it at once.
const failures = new WeakMap<FastifyRequest, EdgeInputError | ApiError>();

function inputError(
  ctx: AppContext,
  req: FastifyRequest,
  err: EdgeInputError | ApiError,
  user: Reader,
): ApiError {
  if (err instanceof ApiError) return err; // a schema's transform that answers its own error
  return err.key ? invalidInput(ctx, req, user, err.key) : badRequest(err.text);
}

/**
 * The edge's refusal of this request's input, kept for the gate (authorize.ts) to answer in turn, written for
 * `user` (the translated-400 hook reads its language).
 */
export function edgeFailure(ctx: AppContext, req: FastifyRequest): ((user: Reader) => ApiError) | undefined {
  const err = failures.get(req);
  return err && ((user) => inputError(ctx, req, err, user));
}

/** A positive integer path id (1 to 15 digits), parsed to a number; else 400 `invalid id "..."`. */
export const pathIdSchema = z.union([z.string(), z.number()]).transform((raw, c) => {
  const text = String(raw);
  if (!/^\d{1,15}$/.test(text) || Number(text) <= 0) {
    c.addIssue({ code: 'custom', message: `invalid id "${text.slice(0, 30)}"` });
    return z.NEVER;
  }
  return Number(text);
});

/** The body of a POST/PUT that takes none: whatever comes is ignored (declared, so the route-listing test knows). */
export const noBody = z.unknown();

/** The params of a `/:id` route. */
export const idParams = z.object({ id: pathIdSchema });

export interface RouteRecord {
  method: string;
  url: string;
  edge: EdgeSpec | undefined;
}

const routesOf = new WeakMap<FastifyInstance, RouteRecord[]>();

/** Every route registered on `app` after registerEdge, with its edge (tests: a route without one fails). */
export function registeredRoutes(app: FastifyInstance): readonly RouteRecord[] {
  return routesOf.get(app) ?? [];
}

/** Registers the edge on the root instance, before any route. */
export function registerEdge(app: FastifyInstance, ctx: AppContext): void {
  const routes: RouteRecord[] = [];
  routesOf.set(app, routes);
  registerServerFlagsScope(app); // the server's flags, read at most once per request (serverFlags.ts)
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = route.config as { edge?: EdgeSpec } | undefined;
    for (const method of methods) routes.push({ method, url: route.url, edge: config?.edge });
  });
  app.addHook('preValidation', async (req) => {
    const spec = req.routeOptions.config?.edge;
    if (spec?.need === 'exempt') return;
    checkMedia(req);
    if (!spec) return;
    try {
      parseEdge(req, spec);
    } catch (err) {
      if (!(err instanceof EdgeInputError) && !(err instanceof ApiError)) throw err;
      if (spec.need === 'public') {
        // the 400 is written in the server's language as this request reads it (no gate ran to read it)
        await requestServerFlags(ctx, req).catch(() => undefined);
        throw inputError(ctx, req, err, null);
      }
      failures.set(req, err);
    }
  });
}

/**
 * The requirement a route declared for this (parsed) request: undefined when the route asks the table (or has no
 * edge yet), null when it needs none.
 */
export function declaredNeed(req: FastifyRequest): ApiRequirement | null | undefined {
  const need = req.routeOptions.config?.edge?.need;
  if (need === undefined || need === 'table') return undefined;
  if (typeof need === 'string') return null; // public, signedIn, exempt, or a role (declaredRole)
  if (typeof need === 'function') {
    // the request was not parsed: the table decides what it can from the raw one, then the 400 is answered
    if (failures.has(req)) return undefined;
    return need({ params: req.params, query: req.query, body: req.body });
  }
  return need;
}

/** Whether the route serves callers not signed in besides its need (EdgeSpec.anonymous). */
export function servesAnonymous(req: FastifyRequest): boolean {
  return req.routeOptions.config?.edge?.anonymous === true;
}

/** The role a route declared (the gate refuses a caller without it), if any. */
export function declaredRole(req: FastifyRequest): EdgeRole | undefined {
  const spec = req.routeOptions.config?.edge;
  if (spec?.role) return spec.role;
  return spec?.need === 'administrator' || spec?.need === 'manager' ? spec.need : undefined;
}
