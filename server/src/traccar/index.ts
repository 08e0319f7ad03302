import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
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
}
