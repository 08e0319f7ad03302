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
// Every registered route is recorded (onRoute) so a test can list them and refuse one without an edge.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { ApiRequirement } from '@rastro/domain';
import { ApiError, badRequest } from './errors.ts';
import { parse } from './traccar/http.ts';

/** What a route's body may be: JSON (default), a form (Traccar's form routes, JSON too), or its own parser's. */
export type EdgeMedia = 'json' | 'form' | 'raw';

/** The parsed request a requirement function reads. */
export interface EdgeRequest {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * The permission a route needs:
 *   'table'    the one table of requirements (domain apiPermission), asked with the parsed request;
 *   'public'   anyone, signed in or not (the route itself decides, e.g. login, OsmAnd reports);
 *   'signedIn' any signed-in user, the route applies Traccar's own rules (readonly, links…) only;
 *   an ApiRequirement, or a function of the parsed request giving one (null: none).
 */
export type EdgeNeed =
  'table' | 'public' | 'signedIn' | ApiRequirement | ((req: EdgeRequest) => ApiRequirement | null);

export interface EdgeSpec {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Default 'json'. */
  media?: EdgeMedia;
  /** A body that is not a JSON object (an array) is parsed too; by default only objects reach `body`. */
  anyBody?: boolean;
  need: EdgeNeed;
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

/**
 * Traccar's form routes (CONTRACT §1: session, tokens, password reset, shares) and the billing unlock form of the
 * web app, not yet declared with an edge: they take forms as well as JSON. Keyed by method and route url.
 */
const FORM_ROUTES = (ns: string) =>
  new Set([
    'POST /api/session',
    'POST /api/session/token',
    'POST /api/session/token/revoke',
    'POST /api/session/password',
    'POST /api/password/reset',
    'POST /api/password/update',
    'POST /api/share/device',
    'POST /api/share/group',
    `POST /${ns}/billing/trust-unlock`,
  ]);

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

const unsupported = () => new ApiError(415, 'Unsupported Media Type', 'NotSupportedException');

function mediaOf(req: FastifyRequest, forms: Set<string>): EdgeMedia {
  const declared = req.routeOptions.config?.edge?.media;
  if (declared) return declared;
  if (forms.has(`${req.method} ${req.routeOptions.url}`)) return 'form';
  // routes with their own parser get the raw bytes (images, theme files) or the stream (the gateway's proxy)
  return Buffer.isBuffer(req.body) || req.body instanceof Readable ? 'raw' : 'json';
}

/** 415 for a body the route does not take (a form or text on a JSON route). */
function checkMedia(req: FastifyRequest, forms: Set<string>): void {
  if (req.body === undefined || req.body === null || req.is404) return;
  // an empty body of any declared type is no body (clients that always send a form content type)
  if (!req.headers['transfer-encoding'] && !(Number(req.headers['content-length']) > 0)) return;
  const media = mediaOf(req, forms);
  if (media === 'raw') return;
  const type = String(req.headers['content-type'] ?? '').trim();
  if (JSON_TYPE.test(type)) return;
  if (media === 'form' && FORM_TYPE.test(type)) return;
  throw unsupported();
}

/** Parses all three first and replaces them only when all three are valid (a failure leaves the raw request). */
function parseEdge(req: FastifyRequest, spec: EdgeSpec): void {
  const params: unknown = spec.params ? parse(spec.params, req.params ?? {}) : req.params;
  const query: unknown = spec.query ? parse(spec.query, req.query ?? {}) : req.query;
  let body: unknown = req.body;
  if (spec.body) {
    const objectOnly = !spec.anyBody && spec.body !== noBody;
    if (objectOnly && (!body || typeof body !== 'object' || Array.isArray(body)))
      throw badRequest('expected a JSON object body');
    body = parse(spec.body, body);
  }
  req.params = params;
  req.query = query;
  req.body = body;
}

// Bad input of a route that needs a caller answers after the caller is known (401 first, as Traccar does) and
// after the permission gate (403 first): authorize.ts throws it then. A public route answers it at once.
const failures = new WeakMap<FastifyRequest, ApiError>();

/** The edge's refusal of this request's input, kept for the gate (authorize.ts) to answer in turn. */
export function edgeFailure(req: FastifyRequest): ApiError | undefined {
  return failures.get(req);
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
export function registerEdge(app: FastifyInstance, ns: string): void {
  const routes: RouteRecord[] = [];
  routesOf.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = route.config as { edge?: EdgeSpec } | undefined;
    for (const method of methods) routes.push({ method, url: route.url, edge: config?.edge });
  });
  const forms = FORM_ROUTES(ns);
  app.addHook('preValidation', async (req) => {
    checkMedia(req, forms);
    const spec = req.routeOptions.config?.edge;
    if (!spec) return;
    try {
      parseEdge(req, spec);
    } catch (err) {
      if (!(err instanceof ApiError) || spec.need === 'public') throw err;
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
  if (need === 'public' || need === 'signedIn') return null;
  if (typeof need === 'function') {
    // the request was not parsed: the table decides what it can from the raw one, then the 400 is answered
    if (failures.has(req)) return undefined;
    return need({ params: req.params, query: req.query, body: req.body });
  }
  return need;
}
