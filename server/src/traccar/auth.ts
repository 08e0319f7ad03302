// Identity of a request (CONTRACT §2): 1. `Authorization` header (Basic email-or-login:password, or Bearer
// token), 2. the `JSESSIONID` cookie (sessions table, Origin check), else anonymous. Disabled or expired users
// are anonymous. A request's caller is read on the store's read pool (db/pool.ts: the session or token, the user;
// issue #30, session 23), once per request (getUser): the gate, the guards and the handler see the same user.
//
// Passwords are hashed with scrypt (passwordHash.ts). Tokens (POST /api/session/token, shares) are 32 random bytes
// in base64url; the store keeps only their SHA-256 (hex) as `tokens.id`, with an expiry and a `revoked` flag.
// Session ids are 24 random bytes (base64url).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { AppContext } from '../context.ts';
import type { UserRow as UserTable } from '../db/schema.ts';
import type { SqlDatabase } from '../db/sql.ts';
import {
  deleteSession,
  deleteUserSessions,
  findSessionAsync,
  findSessionWithUser,
  findTokenAsync,
  insertSession,
  insertToken,
  revokeRememberTokens,
  revokeTokenById,
  revokeUserTokens,
  sessionOriginalUserAsync,
  switchSessionUser,
  touchSession,
  type StoredSession,
  type StoredToken,
} from '../db/repos/sessions.ts';
import { findUserByAccountAsync, findUserByIdAsync } from '../db/repos/users.ts';
import { tooManyRequests, unauthorized } from '../errors.ts';
import { randomToken, sha256, verifyPassword } from './passwordHash.ts';
import { verifyTotp } from './totp.ts';

export type UserRow = Selectable<UserTable>;

export const SESSION_COOKIE = 'JSESSIONID';

/** A user by id on the read pool (issue #30: never through the synchronous handle). */
export function findUserAsync(ctx: AppContext, id: number): Promise<UserRow | undefined> {
  return findUserByIdAsync(ctx.store.sql, id);
}

/** Disabled or expired users count as anonymous (CONTRACT §6). */
export function isActive(user: UserRow, now = Date.now()): boolean {
  if (user.disabled) return false;
  if (user.expirationTime && Date.parse(user.expirationTime) <= now) return false;
  return true;
}

// ---- login rate limiting: per account 10 failures per 15 minutes; per client IP 30 (offices and test
// runners share one address, so the IP limit only stops spraying across many accounts) --------------------

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_MAX_FAILURES_PER_IP = 30;

class LoginLimiter {
  private failures = new Map<string, number[]>();

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < LOGIN_WINDOW_MS);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Throws 429 while the IP or the account is blocked. */
  check(keys: string[], now = Date.now()): void {
    for (const key of keys) {
      const list = this.recent(key, now);
      if (list.length >= (key.startsWith('ip:') ? LOGIN_MAX_FAILURES_PER_IP : LOGIN_MAX_FAILURES)) {
        const wait = Math.max(1, Math.ceil((list[0] + LOGIN_WINDOW_MS - now) / 1000));
        throw tooManyRequests(wait);
      }
    }
  }

  fail(keys: string[], now = Date.now()): void {
    if (this.failures.size > 100_000) this.failures.clear();
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
  }

  succeed(account: string): void {
    this.failures.delete(account);
  }
}

const limiters = new WeakMap<AppContext, LoginLimiter>();
export function loginLimiter(ctx: AppContext): LoginLimiter {
  let l = limiters.get(ctx);
  if (!l) limiters.set(ctx, (l = new LoginLimiter()));
  return l;
}

// ---- password login ------------------------------------------------------------------------------------

export type LoginResult =
  | { ok: true; user: UserRow }
  | { ok: false; reason: 'credentials' | 'totpRequired' | 'totpInvalid' | 'disabled' | 'expired' };

/** Full password login (email or login, case-insensitive), rate limited per IP and per account. */
export async function passwordLogin(
  ctx: AppContext,
  ip: string,
  emailOrLogin: string,
  password: string,
  code?: string,
): Promise<LoginResult> {
  const account = emailOrLogin.trim().toLowerCase();
  const keys = [`ip:${ip}`, `account:${account}`];
  const limiter = loginLimiter(ctx);
  limiter.check(keys);
  const user = await findUserByAccountAsync(ctx.store.sql, account);
  if (!user || !(await verifyPassword(password, user.hashedPassword))) {
    limiter.fail(keys);
    return { ok: false, reason: 'credentials' };
  }
  if (user.totpKey) {
    if (!code) return { ok: false, reason: 'totpRequired' };
    if (!verifyTotp(user.totpKey, code)) {
      limiter.fail(keys);
      return { ok: false, reason: 'totpInvalid' };
    }
  }
  limiter.succeed(`account:${account}`);
  if (user.disabled) return { ok: false, reason: 'disabled' };
  if (!isActive(user)) return { ok: false, reason: 'expired' };
  return { ok: true, user };
}

// ---- tokens --------------------------------------------------------------------------------------------

/**
 * Issues an API token for `userId` valid until `expiresAt`; returns the opaque token text. A remember-me token
 * records the session it was issued in, so logging that session out revokes it.
 */
export async function createSessionToken(
  ctx: AppContext,
  userId: number,
  expiresAt: Date,
  remember: { sessionId: string } | null = null,
): Promise<string> {
  const token = randomToken();
  await insertToken(ctx.store.sql, {
    id: sha256(token),
    userId,
    expiresAt: expiresAt.toISOString(),
    kind: remember ? 'remember' : 'api',
    sessionId: remember?.sessionId ?? null,
  });
  return token;
}

export interface TokenInfo {
  userId: number;
  expiresAt: string;
}

const tokenText = (token: string) => !!token && token.length <= 1024;

/** A stored token while it is live: not revoked, not expired. */
function liveToken(row: StoredToken | undefined): TokenInfo | null {
  if (!row || row.revoked || Date.parse(row.expiresAt) <= Date.now()) return null;
  return { userId: row.userId, expiresAt: row.expiresAt };
}

export function revokeToken(ctx: AppContext, token: string): Promise<boolean> {
  return revokeTokenById(ctx.store.sql, sha256(token));
}

/**
 * The active user owning a live token (exists, not revoked, not expired) and the token's expiry, or null: read on
 * the read pool (GET /api/session?token=, a request's bearer token, the socket's `?token=`).
 */
export async function tokenSignIn(
  ctx: AppContext,
  token: string,
): Promise<{ user: UserRow; token: TokenInfo } | null> {
  if (!tokenText(token)) return null;
  const info = liveToken(await findTokenAsync(ctx.store.sql, sha256(token)));
  if (!info) return null;
  const user = await findUserByIdAsync(ctx.store.sql, info.userId);
  return user && isActive(user) ? { user, token: info } : null;
}

async function userFromTokenAsync(ctx: AppContext, token: string): Promise<UserRow | null> {
  return (await tokenSignIn(ctx, token))?.user ?? null;
}

// ---- cookie sessions -----------------------------------------------------------------------------------

type SessionRecord = StoredSession;

/** How often a session's last-seen time is written (a request a second must not mean a write a second). */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Creates a session for `userId` (recording the request Origin) and sets the JSESSIONID cookie. */
export async function startSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  expiresAt: string | null = null,
  fromToken: string | null = null,
): Promise<void> {
  await endSession(ctx, req, reply, false);
  const id = randomToken(24);
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : null;
  const now = new Date().toISOString();
  await insertSession(ctx.store.sql, {
    id,
    userId,
    origin,
    createdAt: now,
    expiresAt,
    lastSeenAt: now,
    tokenId: fromToken ? sha256(fromToken) : null,
  });
  // Secure when the request came over HTTPS (directly or, trustProxy on, through X-Forwarded-Proto).
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
  });
  requestUsers.set(req, (await findUserAsync(ctx, userId)) ?? null);
}

/** The id of the request's cookie session, when it is a live one (read only: the gate writes its expiry). */
export async function currentSessionId(ctx: AppContext, req: FastifyRequest): Promise<string | null> {
  return (await readSession(ctx, req))?.id ?? null;
}

/**
 * Switches the current cookie session to another user (impersonation, GET /api/session/{id}). `originalUserId` is
 * the administrator who asked: kept with the session (the first one when switched again) so that
 * returnSession gives the session back; null when the session is handed back.
 */
export async function switchSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  originalUserId: number | null = null,
): Promise<void> {
  const session = await readSession(ctx, req);
  if (session) {
    await switchSessionUser(ctx.store.sql, session.id, userId, originalUserId);
    requestUsers.set(req, (await findUserAsync(ctx, userId)) ?? null);
  } else {
    await startSession(ctx, req, reply, userId); // no cookie session (token, basic): nothing to return to
  }
}

/** The administrator who switched the request's cookie session to its current user ("log in as"), or null. */
export async function sessionOriginalUserId(ctx: AppContext, req: FastifyRequest): Promise<number | null> {
  const session = await readSession(ctx, req);
  if (!session) return null;
  return sessionOriginalUserAsync(ctx.store.sql, session.id);
}

/** Ends the cookie session of the request (DELETE /api/session). */
export async function endSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  clearCookie = true,
): Promise<void> {
  const id = req.cookies?.[SESSION_COOKIE];
  if (id) await deleteSession(ctx.store.sql, id);
  if (clearCookie) reply.clearCookie(SESSION_COOKIE, { path: '/' });
  requestUsers.delete(req);
}

/**
 * Logout: ends the cookie session and revokes its remember-me tokens — those issued in it and the one it was
 * restored from — so a stored token cannot sign the browser in again. API tokens are left alone.
 */
export async function logoutSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const id = req.cookies?.[SESSION_COOKIE];
  if (id) {
    const s = await findSessionAsync(ctx.store.sql, id);
    await revokeRememberTokens(ctx.store.sql, id, s?.tokenId ?? '');
  }
  await endSession(ctx, req, reply);
}

/**
 * Ends every session and token of a user (deleted user, self-delete; a password or e-mail change, issue #27):
 * remember-me, API and share tokens are revoked, the cookie sessions end and the open sockets close, but
 * `keepSessionId` — the session in which the user changed its own password or e-mail stays signed in.
 */
export async function endUserSessions(
  ctx: AppContext,
  userId: number,
  keepSessionId: string | null = null,
): Promise<void> {
  await endUserSessionsIn(ctx.store.sql, userId, keepSessionId);
  // its open sockets close (4001); the kept session's own socket reconnects with its cookie
  ctx.bus.emit('signedOut', userId);
}

/**
 * endUserSessions' writes through `db` (the store or a transaction's handle), the sockets not told: its caller
 * emits 'signedOut' once they are committed (a socket closed earlier could reconnect with a session not yet gone).
 */
export async function endUserSessionsIn(
  db: SqlDatabase,
  userId: number,
  keepSessionId: string | null = null,
): Promise<void> {
  await deleteUserSessions(db, userId, keepSessionId ?? '');
  await revokeUserTokens(db, userId);
}

function hostOf(value: string): string | null {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Origin check (CONTRACT §2): equal to the login Origin, or — if none recorded — same host as `Host`. */
function originAllowed(req: { headers: FastifyRequest['headers'] }, recorded: string | null): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === '') return true;
  if (recorded) return origin === recorded;
  const host = req.headers.host;
  return typeof host === 'string' && hostOf(origin) !== null && hostOf(origin) === hostOf(host);
}

type CookieRequest = Pick<FastifyRequest, 'headers' | 'cookies'>;

/** The request's session cookie when it may name a session. */
function cookieOf(req: CookieRequest): string | null {
  const id = req.cookies?.[SESSION_COOKIE];
  return id && id.length <= 200 ? id : null;
}

/**
 * The request's cookie session if it is live (not expired, not idle, Origin allowed). Read only: the request's
 * gate (sessionUser) already deleted it when it was over, and wrote its last-seen time.
 */
async function readSession(ctx: AppContext, req: CookieRequest): Promise<SessionRecord | null> {
  const id = cookieOf(req);
  const s = id ? await findSessionAsync(ctx.store.sql, id) : undefined;
  return s && sessionState(ctx, s, Date.now()) !== 'over' && originAllowed(req, s.origin) ? s : null;
}

/** Whether a stored session is over (expired or idle), live, or live with its last-seen time to write. */
function sessionState(ctx: AppContext, s: SessionRecord, now: number): 'over' | 'live' | 'stale' {
  const lastSeen = Date.parse(s.lastSeenAt ?? s.createdAt);
  if ((s.expiresAt && Date.parse(s.expiresAt) <= now) || now - lastSeen >= ctx.config.sessionIdleMs)
    return 'over';
  return now - lastSeen < LAST_SEEN_RESOLUTION_MS ? 'live' : 'stale';
}

/**
 * The stored session if it is live for this request (the gate): an expired or idle one is deleted; Origin
 * checked; its last-seen time written at most once a LAST_SEEN_RESOLUTION_MS (asynchronous writes, issue #30).
 */
async function liveSession(
  ctx: AppContext,
  req: CookieRequest,
  s: SessionRecord | undefined,
): Promise<SessionRecord | null> {
  if (!s) return null;
  const now = Date.now();
  const state = sessionState(ctx, s, now);
  if (state === 'over') {
    await deleteSession(ctx.store.sql, s.id);
    return null;
  }
  if (!originAllowed(req, s.origin)) return null;
  if (state === 'stale') await touchSession(ctx.store.sql, s.id, new Date(now).toISOString());
  return s;
}

/**
 * The user of the cookie session only (no Authorization header), or null: the session and its user read together
 * on the read pool, its expiry and last-seen writes made asynchronously.
 */
async function sessionUser(ctx: AppContext, req: CookieRequest): Promise<UserRow | null> {
  const id = cookieOf(req);
  const found = id ? await findSessionWithUser(ctx.store.sql, id) : undefined;
  if (!found || !(await liveSession(ctx, req, found.session))) return null;
  return isActive(found.user) ? found.user : null;
}

// ---- identity of a request -----------------------------------------------------------------------------

const requestUsers = new WeakMap<object, UserRow | null>();

async function resolveUser(ctx: AppContext, req: FastifyRequest): Promise<UserRow | null> {
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.trim() !== '') {
    const [scheme, ...rest] = header.trim().split(/\s+/);
    const value = rest.join(' ');
    if (scheme.toLowerCase() === 'basic') {
      let decoded: string;
      try {
        decoded = Buffer.from(value, 'base64').toString('utf8');
      } catch {
        return null;
      }
      const colon = decoded.indexOf(':');
      if (colon <= 0) return null;
      const r = await passwordLogin(ctx, req.ip, decoded.slice(0, colon), decoded.slice(colon + 1));
      return r.ok ? r.user : null;
    }
    if (scheme.toLowerCase() === 'bearer') return userFromTokenAsync(ctx, value);
    return null;
  }
  return sessionUser(ctx, req);
}

/** The caller being read on the read pool: callers asking meanwhile wait for the same answer. */
const pendingUsers = new WeakMap<object, Promise<UserRow | null>>();

/**
 * The authenticated user of the request, or null (anonymous). Read once per request, on the read pool: the gate,
 * the guards and the handler get the same object (a sign-in, switch or sign-out during the request sets it).
 */
export async function getUser(ctx: AppContext, req: FastifyRequest): Promise<UserRow | null> {
  if (requestUsers.has(req)) return requestUsers.get(req) ?? null;
  let pending = pendingUsers.get(req);
  if (!pending) {
    pending = resolveUser(ctx, req);
    pendingUsers.set(req, pending);
  }
  try {
    const user = await pending;
    if (!requestUsers.has(req)) requestUsers.set(req, user);
    return requestUsers.get(req) ?? null;
  } finally {
    if (pendingUsers.get(req) === pending) pendingUsers.delete(req);
  }
}

/** The authenticated user, else 401 (with `WWW-Authenticate: Basic` for browsers asking for HTML). */
export async function requireUser(ctx: AppContext, req: FastifyRequest): Promise<UserRow> {
  const user = await getUser(ctx, req);
  if (user) return user;
  const accept = String(req.headers.accept ?? '');
  throw unauthorized(accept.includes('text/html') ? { 'www-authenticate': 'Basic realm="api"' } : {});
}

/** Identity for the WebSocket upgrade (CONTRACT §5): `?token=` or the cookie session (with Origin check). */
export function userFromSocketRequest(
  ctx: AppContext,
  req: Pick<FastifyRequest, 'headers' | 'cookies' | 'query'>,
): Promise<UserRow | null> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  if (typeof q.token === 'string' && q.token) return userFromTokenAsync(ctx, q.token);
  return sessionUser(ctx, req);
}
