import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { purgeExpiredSessions } from '../db/repos/sessions.ts';
import { ensureAdmin } from './admin.ts';
import { registerAudit } from './audit.ts';
import { registerPassword } from './password.ts';
import { registerPermissions } from './permissions.ts';
import { registerResources } from './resources.ts';
import { registerServer } from './server.ts';
import { registerSession } from './session.ts';
import { registerShare } from './share.ts';
import { registerUsers } from './users.ts';

/** The embedded Traccar-compatible REST API: session, users, CRUD resources, permissions, server. */
export async function registerTraccar(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await ensureAdmin(ctx);
  registerServer(app, ctx);
  registerSession(app, ctx);
  registerPassword(app, ctx);
  registerUsers(app, ctx);
  registerResources(app, ctx);
  registerPermissions(app, ctx);
  registerShare(app, ctx);
  registerAudit(app, ctx);
  startHousekeeping(ctx);
}

/** Hourly removal of expired and idle sessions, tokens and password-reset tokens. */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

export function purgeExpired(ctx: AppContext, now = new Date()): Promise<number> {
  const idleBefore = new Date(now.getTime() - ctx.config.sessionIdleMs).toISOString();
  return purgeExpiredSessions(ctx.store.sql, now.toISOString(), idleBefore);
}

function startHousekeeping(ctx: AppContext): void {
  const purge = () => {
    if (!ctx.cluster.isLeader()) return; // one process (db/cluster.ts)
    purgeExpired(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'expired sessions not purged'));
  };
  purge();
  const timer = setInterval(purge, HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  ctx.onClose.push(() => clearInterval(timer));
}
