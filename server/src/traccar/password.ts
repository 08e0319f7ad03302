// Password reset (CONTRACT §2): POST /api/password/reset always answers 200; when the user exists a one-hour
// token is created (only its SHA-256 is stored in password_resets) and mailed as a link to PUBLIC_URL.
// POST /api/password/update sets the new password with that token.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { passwordResetForm, passwordUpdateForm } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { edge, edgeValue } from '../edge.ts';
import { deletePasswordReset, findPasswordResetAsync, replacePasswordReset } from '../db/repos/sessions.ts';
import { findUserByAccountAsync, setHashedPassword } from '../db/repos/users.ts';
import { badRequest, notFound } from '../errors.ts';
import { endUserSessions, findUserAsync } from './auth.ts';
import { hashPassword, randomToken, sha256 } from './passwordHash.ts';
import { getMailer } from './mailer.ts';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * The mailed link: PUBLIC_URL + the app's route /login/recover/{token}. The request never chooses the link's site:
 * the Host header is not used, and `requested_from` only when it names PUBLIC_URL's own origin (then its path,
 * e.g. a sub-folder the app is served under, is kept).
 */
export function recoverLink(publicUrl: string, token: string, requestedFrom?: string): string {
  let base = publicUrl;
  if (requestedFrom) {
    try {
      const from = new URL(requestedFrom);
      if (from.origin === new URL(publicUrl).origin)
        base = `${from.origin}${from.pathname.replace(/\/+$/, '')}`;
    } catch {
      // not a URL: ignored
    }
  }
  return `${base}/login/recover/${encodeURIComponent(token)}`;
}

type ResetForm = z.output<typeof passwordResetForm>;
type UpdateForm = z.output<typeof passwordUpdateForm>;

const resetFromForm = passwordResetForm.extend({ requested_from: z.string().max(2048).optional() });

/** The Rastro web client's one form: with `token` it sets the password, else it asks for a reset. */
const sessionPasswordForm = z.record(z.string(), z.unknown()).transform((form, c) => {
  const r = (form.token !== undefined ? passwordUpdateForm : resetFromForm).safeParse(form);
  if (r.success) return r.data;
  for (const issue of r.error.issues)
    c.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

export function registerPassword(app: FastifyInstance, ctx: AppContext): void {
  const reset = async (form: ResetForm, reply: FastifyReply, requestedFrom?: string) => {
    const email = form.email.toLowerCase();
    const user = await findUserByAccountAsync(ctx.store.sql, email);
    if (user) {
      // the request is logged, never the link or its token (a reset link signs its holder in)
      ctx.log.info({ userId: user.id }, 'password reset requested');
      const token = randomToken();
      const sql = ctx.store.sql;
      await replacePasswordReset(
        sql,
        sha256(token),
        user.id,
        new Date(Date.now() + RESET_TOKEN_TTL_MS).toISOString(),
      );
      const link = recoverLink(ctx.config.publicUrl, token, requestedFrom);
      await getMailer(ctx).send({
        to: user.email,
        subject: 'Password reset',
        body: `To choose a new password open ${link} (valid for 1 hour).`,
      });
    }
    return reply.status(200).send();
  };

  const update = async (form: UpdateForm, reply: FastifyReply) => {
    const sql = ctx.store.sql;
    const row = await findPasswordResetAsync(sql, sha256(form.token));
    if (!row || Date.parse(row.expiresAt) <= Date.now()) throw badRequest('Invalid or expired token');
    await deletePasswordReset(sql, sha256(form.token));
    if (!(await findUserAsync(ctx, row.userId))) throw notFound('User not found');
    await setHashedPassword(sql, row.userId, await hashPassword(form.password));
    await endUserSessions(ctx, row.userId); // the old password's sessions and tokens end with it (issue #27)
    return reply.status(200).send();
  };

  const resetEdge = edge({ body: passwordResetForm, media: 'form', need: 'public' });
  app.post('/api/password/reset', resetEdge, (req, reply) =>
    reset(edgeValue(passwordResetForm, req.body), reply),
  );
  const updateEdge = edge({ body: passwordUpdateForm, media: 'form', need: 'public' });
  app.post('/api/password/update', updateEdge, (req, reply) =>
    update(edgeValue(passwordUpdateForm, req.body), reply),
  );
  // The Rastro web client (SPEC §7) uses one form endpoint: `token` + `password` sets the password;
  // `email` (+ `requested_from`, the app's own origin, used for the link) requests a reset.
  const oneEdge = edge({ body: sessionPasswordForm, media: 'form', need: 'public' });
  app.post('/api/session/password', oneEdge, async (req, reply) => {
    const form = edgeValue(sessionPasswordForm, req.body);
    if ('token' in form) return update(form, reply);
    return reset(form, reply, form.requested_from);
  });
}
