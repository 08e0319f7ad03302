// Sessions and tokens (CONTRACT §2): form login, cookie session, impersonation, API tokens, TOTP login.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loginForm, revokeForm, tokenForm } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { edge, edgeValue, idParams, noBody } from '../edge.ts';
import { findTokenAsync, sessionExpiryAsync } from '../db/repos/sessions.ts';
import { badRequest, denied, notFound, unauthorized } from '../errors.ts';
import { checkNotOtherAdmin, checkUserAccess } from './access.ts';
import { accountPolicy } from './accountPolicy.ts';
import { logAction } from './audit.ts';
import {
  SESSION_COOKIE,
  createSessionToken,
  currentSessionId,
  logoutSession,
  findUserAsync,
  getUser,
  passwordLogin,
  requireUser,
  revokeToken,
  sessionOriginalUserId,
  startSession,
  switchSession,
  tokenSignIn,
} from './auth.ts';
import { sha256 } from './passwordHash.ts';
import { userToJson, type Row } from './model.ts';
import { checkImpersonationTarget } from './userRules.ts';
import { refused } from '../refusal.ts';

export const DEFAULT_TOKEN_DAYS = 7;

/** GET /api/session?token=… signs in with an API token (CONTRACT §2); no token: the current session. */
const sessionQuery = z.object({ token: z.string().min(1, 'token must be a string').max(2048).optional() });

export function registerSession(app: FastifyInstance, ctx: AppContext): void {
  // a form only: Traccar answers JSON with 415 (CONTRACT §1)
  const loginEdge = edge({ body: loginForm, media: 'formOnly', need: 'public' });
  app.post('/api/session', loginEdge, async (req, reply) => {
    const form = edgeValue(loginForm, req.body);
    const r = await passwordLogin(ctx, req.ip, form.email, form.password, form.code);
    if (!r.ok) {
      switch (r.reason) {
        case 'credentials':
          throw unauthorized();
        case 'totpRequired':
          throw unauthorized({ 'www-authenticate': 'TOTP' });
        case 'totpInvalid':
          throw denied('User authorization failed');
        case 'disabled':
          throw denied('User is disabled');
        case 'expired':
          throw denied('User has expired');
      }
    }
    const suspended = await accountPolicy(ctx).loginRefusal(ctx, r.user); // billing: 403 JSON for a suspended account
    if (suspended) return reply.status(403).send(suspended);
    await startSession(ctx, req, reply, r.user.id);
    await logAction(ctx, req, r.user.id, 'login', 'user', r.user.id);
    return userToJson(r.user as unknown as Row, r.user.id);
  });

  app.get('/api/session', edge({ query: sessionQuery, need: 'public' }), async (req, reply) => {
    const q = edgeValue(sessionQuery, req.query);
    if (q.token !== undefined) {
      const signIn = await tokenSignIn(ctx, q.token);
      if (!signIn) throw unauthorized();
      const { user, token: info } = signIn;
      const suspended = await accountPolicy(ctx).loginRefusal(ctx, user);
      if (suspended) return reply.status(403).send(suspended);
      await startSession(ctx, req, reply, user.id, info.expiresAt, q.token);
      return userToJson(user as unknown as Row, user.id);
    }
    const user = await getUser(ctx, req);
    if (!user) throw notFound('No session');
    const suspended = await accountPolicy(ctx).loginRefusal(ctx, user);
    if (suspended) return reply.status(403).send(suspended);
    // logged in as another user: the answer is that user's, seen by the one who logged in as them
    return userToJson(user as unknown as Row, (await sessionOriginalUserId(ctx, req)) ?? user.id);
  });

  // OpenID is not configured in embedded mode (server.openIdEnabled is false): CONTRACT §2 answers 400.
  for (const path of ['/api/session/openid/auth', '/api/session/openid/callback']) {
    app.get(path, edge({ need: 'public' }), async () => {
      throw badRequest('OpenID is not configured');
    });
  }

  app.get('/api/session/:id', edge({ params: idParams, need: 'signedIn' }), async (req, reply) => {
    const caller = await requireUser(ctx, req);
    const { id } = edgeValue(idParams, req.params);
    await checkUserAccess(ctx, caller, id);
    const target = await findUserAsync(ctx, id);
    if (!target) throw notFound(`User ${id} not found`);
    checkNotOtherAdmin(caller, target);
    await checkImpersonationTarget(ctx, req, caller, target); // not oneself, the superior administrator, disabled, expired
    const original = (await sessionOriginalUserId(ctx, req)) ?? caller.id;
    await switchSession(ctx, req, reply, id, caller.id);
    await logAction(ctx, req, original, 'loginAs', 'user', id, { by: caller.id });
    return userToJson(target as unknown as Row, original);
  });

  // Log in as (docs/users.md): whose account this session uses on behalf of whom, and the way back.
  app.get(`/${ctx.config.ns}/session/original`, edge({ need: 'signedIn' }), async (req, reply) => {
    await requireUser(ctx, req);
    const originalId = await sessionOriginalUserId(ctx, req);
    const original = originalId === null ? undefined : await findUserAsync(ctx, originalId);
    if (!original) return reply.status(204).send();
    return { id: original.id, name: original.name, email: original.email };
  });

  app.post(
    `/${ctx.config.ns}/session/return`,
    edge({ body: noBody, need: 'signedIn' }),
    async (req, reply) => {
      const user = await requireUser(ctx, req);
      const originalId = await sessionOriginalUserId(ctx, req);
      const original = originalId === null ? undefined : await findUserAsync(ctx, originalId);
      if (!original) throw refused(ctx, req, user, 'validation.notImpersonating');
      await switchSession(ctx, req, reply, original.id);
      await logAction(ctx, req, original.id, 'loginAsReturn', 'user', user.id);
      return userToJson(original as unknown as Row, original.id);
    },
  );

  app.delete('/api/session', edge({ need: 'signedIn' }), async (req, reply) => {
    const user = await requireUser(ctx, req);
    await logoutSession(ctx, req, reply);
    await logAction(ctx, req, user.id, 'logout', 'user', user.id);
    return reply.status(204).send();
  });

  app.post(
    '/api/session/token',
    edge({ body: tokenForm, media: 'form', need: 'signedIn' }),
    async (req, reply) => {
      const user = await requireUser(ctx, req);
      const form = edgeValue(tokenForm, req.body);
      let expires = form.expiration
        ? new Date(form.expiration)
        : new Date(Date.now() + DEFAULT_TOKEN_DAYS * 86_400_000);
      if (expires.getTime() <= Date.now()) throw badRequest('expiration must be in the future');
      // A token never outlives the session it was requested from.
      const sid = req.cookies?.[SESSION_COOKIE];
      const session = sid ? await sessionExpiryAsync(ctx.store.sql, sid) : undefined;
      if (session?.expiresAt && Date.parse(session.expiresAt) < expires.getTime())
        expires = new Date(session.expiresAt);
      const sessionId = form.rememberMe ? await currentSessionId(ctx, req) : null;
      const token = await createSessionToken(ctx, user.id, expires, sessionId ? { sessionId } : null);
      return reply.type('text/plain; charset=utf-8').send(token);
    },
  );

  const revokeEdge = edge({ body: revokeForm, media: 'form', need: 'signedIn' });
  app.post('/api/session/token/revoke', revokeEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const form = edgeValue(revokeForm, req.body);
    const row = await findTokenAsync(ctx.store.sql, sha256(form.token));
    if (!row) throw badRequest('Invalid token');
    if (!user.administrator && row.userId !== user.id) throw denied('User access denied');
    await revokeToken(ctx, form.token);
    return reply.status(204).send();
  });
}
