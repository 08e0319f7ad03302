// A suspended account (billing, docs/billing.md) is refused on every route, not only at sign-in: API clients that
// authenticate each request with Basic or Bearer, and any cookie session that outlived the suspension, get the same
// 403 JSON as POST /api/session (error, trustAvailable, open invoices). Left open: the session routes themselves
// (they answer that JSON), the trust unlock and the user's own invoice list (to pay). Embedded mode.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getUser } from '../../traccar/auth.ts';
import { suspensionRefusal } from './accounts.ts';

export function isOpenToSuspended(ns: string, method: string, path: string): boolean {
  if (path === '/api/session' || path.startsWith('/api/session/')) return true;
  if (path === `/${ns}/billing/trust-unlock` && method === 'POST') return true;
  if (path === `/${ns}/invoices` && method === 'GET') return true;
  return !path.startsWith('/api/') && !path.startsWith(`/${ns}/`); // the app's pages and assets
}

export function registerSuspensionGuard(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.mode !== 'embedded') return;
  app.addHook('preHandler', async (req, reply) => {
    const path = req.url.split('?', 1)[0];
    if (isOpenToSuspended(ctx.config.ns, req.method, path)) return;
    const user = await getUser(ctx, req);
    if (!user) return;
    const refusal = await suspensionRefusal(ctx, user); // reads the store only for a suspended account
    if (refusal) return reply.status(403).send(refusal);
  });
}
