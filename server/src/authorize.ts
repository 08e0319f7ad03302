// The authorization layer of the advanced permission bits (SPEC §6, docs/permissions.md): one Fastify preHandler
// in front of every route, in both modes. For a request that needs an area × action (the domain's apiPermission),
// it evaluates the caller with the same domain rules the web app uses and answers 403 (refusal.ts) before the route
// runs, so nothing is written. No caller ⇒ the route answers 401 as before. Traccar's own flags (readonly,
// deviceReadonly, limitCommands, disableReports) stay with the routes and keep their 400 contract.
//
//   embedded: the store's user (getUser, cached per request) and the server row, read on the store's read pool
//             (db/pool.ts) once per request (serverFlags.ts), saved commands and geofences from the store;
//   gateway:  the upstream user (identity.ts), the upstream server's attributes (cached SERVER_TTL_MS), saved
//             commands and geofences asked upstream with the caller's credentials. The proxy does not parse bodies,
//             so the few calls whose requirement depends on the body are buffered here and forwarded unchanged.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import {
  apiDenial,
  apiPermission,
  apiPermissionLookups,
  type ApiFacts,
  type ApiRequirement,
  type ServerLike,
  type User,
  type UserLike,
} from '@rastro/domain';
import type { AppContext } from './context.ts';
import { geofenceAttributesText, savedCommandType } from './db/repos/catalog.ts';
import { ApiError, denied, unauthorized } from './errors.ts';
import { refused, refusedPermission } from './refusal.ts';
import { requestServerFlags } from './serverFlags.ts';
import { getUser, type UserRow } from './traccar/auth.ts';
import { domainUser } from './traccar/model.ts';
import { declaredNeed, declaredRole, edgeFailure, servesAnonymous, type EdgeRole } from './edge.ts';
import { upstreamOf } from './gateway/upstream.ts';
import { credentials, upstreamUser } from './gateway/identity.ts';

export const SERVER_TTL_MS = 10_000;
const UPSTREAM_TIMEOUT_MS = 10_000;
const MAX_BUFFERED_BODY = 1024 * 1024;

function parseAttributes(text: unknown): Record<string, unknown> {
  if (text && typeof text === 'object') return text as Record<string, unknown>;
  if (typeof text !== 'string' || !text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A store user row as the domain sees a user. */
export function userLike(row: UserRow): UserLike {
  return domainUser(row);
}

interface Caller {
  user: UserLike;
  server: ServerLike;
  facts(lookups: ReturnType<typeof apiPermissionLookups>): Promise<ApiFacts>;
}

// ---- embedded ------------------------------------------------------------------------------------------

async function embeddedServer(ctx: AppContext, req: FastifyRequest): Promise<ServerLike> {
  // the request's one read (serverFlags.ts): the route's checks and the refusal's language see the same flags
  const row = await requestServerFlags(ctx, req);
  return {
    attributes: parseAttributes(row?.attributes) as ServerLike['attributes'],
    readonly: !!row?.readonly,
    deviceReadonly: !!row?.deviceReadonly,
    limitCommands: !!row?.limitCommands,
    disableReports: !!row?.disableReports,
  };
}

async function embeddedCaller(ctx: AppContext, req: FastifyRequest): Promise<Caller | null> {
  // read side by side on the read pool: each read waited for is one more turn of a busy event loop
  const [row, server] = await Promise.all([getUser(ctx, req), embeddedServer(ctx, req)]);
  if (!row) return null;
  const sql = ctx.store.sql;
  return {
    user: userLike(row),
    server,
    async facts({ savedCommandId, geofenceId }) {
      const facts: ApiFacts = { userId: row.id };
      // read on the pool (issue #30: the gate never holds the main thread on PostgreSQL)
      if (savedCommandId) {
        facts.savedCommandType = await savedCommandType(sql, savedCommandId);
      }
      if (geofenceId) {
        const a = parseAttributes(await geofenceAttributesText(sql, geofenceId));
        facts.geofenceIsAnchor = a.isAnchor === true || a.isAnchor === 'true';
      }
      return facts;
    },
  };
}

// ---- gateway -------------------------------------------------------------------------------------------

const serverCache = new WeakMap<AppContext, { at: number; signedIn: boolean; value: Promise<ServerLike> }>();

async function upstreamJson(
  ctx: AppContext,
  path: string,
  headers: Record<string, string>,
): Promise<unknown> {
  const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
  try {
    const res = await fetch(`${origin}${basePath}${path}`, {
      headers: { ...headers, accept: 'application/json' },
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    return res.ok ? await res.json() : null;
  } catch (err) {
    ctx.log.warn({ err, path }, 'upstream lookup for authorization failed');
    return null;
  }
}

/**
 * The upstream server's flags and attributes, kept SERVER_TTL_MS (an empty server when unreachable). Asked with the
 * caller's credentials when given: an upstream that shows a settings attribute to signed-in users only (Rastro's
 * allow-list, domain serverSecrets.ts, hides {ns}.enableAdvancedPerms from anonymous callers) still shows it to the
 * gate. An answer asked anonymously is not reused for a signed-in ask.
 */
export function upstreamServer(
  ctx: AppContext,
  headers: Record<string, string> = {},
  now = Date.now(),
): Promise<ServerLike> {
  const signedIn = Object.keys(headers).length > 0;
  const hit = serverCache.get(ctx);
  if (hit && now - hit.at < SERVER_TTL_MS && (hit.signedIn || !signedIn)) return hit.value;
  const value = upstreamJson(ctx, '/api/server', headers).then((s) => {
    const o = (s && typeof s === 'object' ? s : {}) as Record<string, unknown>;
    if (!s) serverCache.delete(ctx); // do not keep a failure
    return {
      attributes: parseAttributes(o.attributes) as ServerLike['attributes'],
      readonly: !!o.readonly,
      deviceReadonly: !!o.deviceReadonly,
      limitCommands: !!o.limitCommands,
      disableReports: !!o.disableReports,
    };
  });
  serverCache.set(ctx, { at: now, signedIn, value });
  return value;
}

/** Forgets the cached upstream server (tests; after PUT /api/server through the proxy). */
export function forgetUpstreamServer(ctx: AppContext): void {
  serverCache.delete(ctx);
}

async function gatewayCaller(ctx: AppContext, req: FastifyRequest): Promise<Caller | null> {
  const user: User | null = await upstreamUser(ctx, req);
  const creds = credentials(req);
  if (!user || !creds) return null;
  return {
    user: user as UserLike,
    server: await upstreamServer(ctx, creds),
    async facts({ savedCommandId, geofenceId }) {
      const facts: ApiFacts = { userId: user.id };
      if (savedCommandId) {
        const c = (await upstreamJson(ctx, `/api/commands/${savedCommandId}`, creds)) as {
          type?: unknown;
        } | null;
        facts.savedCommandType = typeof c?.type === 'string' ? c.type : null;
      }
      if (geofenceId) {
        const g = (await upstreamJson(ctx, `/api/geofences/${geofenceId}`, creds)) as {
          attributes?: unknown;
        } | null;
        const a = parseAttributes(g?.attributes);
        facts.geofenceIsAnchor = a.isAnchor === true || a.isAnchor === 'true';
      }
      return facts;
    },
  };
}

/** The proxy leaves bodies as streams: read one (bounded), give the route an identical stream back. */
async function bufferedBody(req: FastifyRequest): Promise<unknown> {
  const b = req.body;
  if (!(b instanceof Readable)) return b;
  const chunks: Buffer[] = [];
  let size = 0;
  // A body the check cannot read whole is refused: its requirement may depend on it (engineStop vs a command).
  for await (const chunk of b as AsyncIterable<Buffer | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > MAX_BUFFERED_BODY)
      throw new ApiError(413, 'Request body too large', 'WebApplicationException');
    chunks.push(buf);
  }
  const raw = Buffer.concat(chunks);
  req.body = Readable.from([raw]);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

// ---- the hook ------------------------------------------------------------------------------------------

/**
 * Throws the 403 refusal when the caller lacks the permission this request needs: the route's declared need
 * (edge.ts), or the table's (apiPermission) read with the request the edge parsed (req.body/query are the parsed
 * values by now; in gateway mode the buffered body, whose command type the table normalises itself).
 */
export async function authorize(ctx: AppContext, req: FastifyRequest): Promise<void> {
  const failure = edgeFailure(ctx, req);
  const user = await gate(ctx, req, failure !== undefined);
  // the route's role, then bad input of a route that needs a caller: after 401 and 403 (the suspension guard's
  // too), as the handlers answered them, the 400 in the caller's language (registerInputRefusal)
  const role = declaredRole(req);
  const refusal = (role && user && roleRefusal(role, user)) || failure?.(user);
  if (refusal) refusals.set(req, refusal);
}

const refusals = new WeakMap<FastifyRequest, ApiError>();

/** Traccar's refusal of a caller without the route's role (access.ts checkAdmin / checkManager say the same). */
function roleRefusal(role: EdgeRole, user: UserLike): ApiError | null {
  if (user.administrator) return null;
  if (role === 'administrator') return denied('Administrator access required');
  return (user.userLimit ?? 0) === 0 ? denied('Manager access required') : null;
}

/** The gate; returns the caller when it looked one up (the translated 400 is written in its language). */
async function gate(ctx: AppContext, req: FastifyRequest, badInput: boolean): Promise<UserLike | null> {
  const role = declaredRole(req);
  const declared = declaredNeed(req);
  if (declared === null && !badInput && !role) return null;
  // Cheap first pass: most calls need nothing (facts never turn "nothing" into a requirement).
  const { ns } = ctx.config;
  const some =
    declared !== null && (declared || apiPermission(req.method, req.url, ns, undefined, req.query));
  if (!some && !badInput && !role) return null;
  const gateway = ctx.config.mode === 'gateway';
  const caller = gateway ? await gatewayCaller(ctx, req) : await embeddedCaller(ctx, req);
  if (!caller) {
    if (role || (badInput && !servesAnonymous(req))) throw signInRequired(req);
    return null; // the route answers 401 (or serves anonymous callers)
  }
  // the role is answered after the permission bit (a manager-only route with a bit answers the bit's 403 first)
  if (some) await checkPermission(ctx, req, caller, declared);
  return caller.user;
}

/** The advanced permission bit of this request (declared, or the table's), 403 when the caller lacks it. */
async function checkPermission(
  ctx: AppContext,
  req: FastifyRequest,
  caller: Caller,
  declared: ApiRequirement | undefined,
): Promise<void> {
  const { ns } = ctx.config;
  let need: ApiRequirement | null | undefined = declared;
  if (!need) {
    const body = ctx.config.mode === 'gateway' ? await bufferedBody(req) : req.body;
    const facts = await caller.facts(apiPermissionLookups(req.method, req.url, body));
    need = apiPermission(req.method, req.url, ns, body, req.query, facts);
  }
  if (!need) return;
  const denial = apiDenial(
    { user: caller.user, server: caller.server, isPlus: ctx.config.edition === 'plus', ns },
    need,
  );
  if (!denial) return;
  if (denial === 'denied.permission') throw refusedPermission(ctx, req, caller.user, need.area, need.action);
  throw refused(ctx, req, caller.user, denial);
}

/** The 401 of a route without a caller (as requireUser answers it: a Basic challenge for browsers only). */
function signInRequired(req: FastifyRequest): ApiError {
  const accept = String(req.headers.accept ?? '');
  return unauthorized(accept.includes('text/html') ? { 'www-authenticate': 'Basic realm="api"' } : {});
}

/** Registers the layer once, before any route, so it runs in front of every route of the app. */
export function registerAuthorization(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', async (req) => {
    await authorize(ctx, req);
    // without other refusing hooks after it (bare test apps), the edge's 400 is answered at once
    if (!laterRefusals.has(app)) answerInputRefusal(req);
  });
}

const laterRefusals = new WeakSet<FastifyInstance>();

function answerInputRefusal(req: FastifyRequest): void {
  const refusal = refusals.get(req);
  if (refusal) throw refusal;
}

/**
 * Answers the edge's 400 of a route that needs a caller, after every refusing preHandler registered between
 * registerAuthorization and this (the billing suspension guard's 403 comes first). Call once, after those.
 */
export function registerInputRefusal(app: FastifyInstance): void {
  laterRefusals.add(app);
  app.addHook('preHandler', async (req) => answerInputRefusal(req));
}
