// Permission links (CONTRACT §3 Permission, §4, §6): POST/DELETE /api/permissions (one link),
// /api/permissions/bulk (same key pair), GET /api/permissions (admin). For non-admins both sides are checked:
// a user side must be the caller or a user it manages, any other side must be visible to the caller.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  PERMISSION_KEYS,
  PERMISSION_PAIRS,
  permissionBulkInput,
  permissionInput,
  type ParsedPermission,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { addLink, linkPairsAsync, removeLink } from '../db/repos/links.ts';
import { inTransaction } from '../db/repos/query.ts';
import { badRequest } from '../errors.ts';
import {
  CLASS_OF,
  checkAdmin,
  checkManager,
  checkRestriction,
  checkSee,
  checkUserAccess,
  objectExists,
  permissionsChanged,
} from './access.ts';
import { logActionIn } from './audit.ts';
import { requireUser, type UserRow } from './auth.ts';
import { edge, edgeValue } from '../edge.ts';

async function checkSide(ctx: AppContext, user: UserRow, type: string, id: number): Promise<void> {
  if (!(await objectExists(ctx, type, id))) throw badRequest(`${CLASS_OF[type]} ${id} not found`);
  if (user.administrator) return;
  if (type === 'user' || type === 'managedUser') await checkUserAccess(ctx, user, id);
  else await checkSee(ctx, user, type, id);
}

export async function checkLink(ctx: AppContext, user: UserRow, p: ParsedPermission): Promise<void> {
  if (!user.administrator) {
    await checkRestriction(ctx, user, 'readonly');
    if (p.propertyType === 'managedUser') checkManager(user);
  }
  if (p.propertyType === 'managedUser' && p.ownerId === p.propertyId)
    throw badRequest('a user cannot manage itself');
  await checkSide(ctx, user, p.ownerType, p.ownerId);
  await checkSide(ctx, user, p.propertyType, p.propertyId);
}

/** The links and their actions in one transaction (issue #30: the write client on PostgreSQL), all or none. */
async function write(
  ctx: AppContext,
  req: FastifyRequest,
  userId: number,
  links: ParsedPermission[],
  add: boolean,
): Promise<void> {
  await inTransaction(ctx.store.sql, async (tx) => {
    for (const l of links) {
      const link = {
        ownerType: l.ownerType,
        ownerId: l.ownerId,
        propertyType: l.propertyType,
        propertyId: l.propertyId,
      };
      if (add) await addLink(tx, link);
      else await removeLink(tx, link);
      await logActionIn(tx, req, userId, add ? 'link' : 'unlink', l.ownerType, l.ownerId, {
        propertyType: l.propertyType,
        propertyId: l.propertyId,
      });
    }
  });
  permissionsChanged(ctx);
}

/** GET /api/permissions: exactly two keys, owner first (`?userId=1&deviceId=0`), ids with 0 for any. */
const linkQuery = z.record(z.string(), z.unknown()).transform((q, c) => {
  const refuse = (message: string) => {
    c.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  const entries = Object.entries(q);
  if (entries.length !== 2)
    return refuse('give exactly two parameters, owner first, e.g. ?userId=1&deviceId=0');
  for (const [k, v] of entries) {
    if (!(PERMISSION_KEYS as readonly string[]).includes(k))
      return refuse(`unknown permission key "${k.slice(0, 40)}"`);
    if (typeof v !== 'string' || !/^\d{1,15}$/.test(v)) return refuse(`${k} must be an id (0 = any)`);
  }
  const [[ownerKey, ownerRaw], [propertyKey, propertyRaw]] = entries;
  const ownerType = ownerKey.slice(0, -2);
  const propertyType = propertyKey.slice(0, -2);
  if (!PERMISSION_PAIRS[ownerType]?.includes(propertyType))
    return refuse(`cannot link ${propertyKey} to ${ownerKey}`);
  return {
    ownerKey,
    ownerType,
    ownerId: Number(ownerRaw),
    propertyKey,
    propertyType,
    propertyId: Number(propertyRaw),
  };
});

export function registerPermissions(app: FastifyInstance, ctx: AppContext): void {
  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/api/permissions',
      ...edge({ body: permissionInput, anyBody: true, need: 'table' }),
      handler: async (req, reply) => {
        const user = await requireUser(ctx, req);
        const link = edgeValue(permissionInput, req.body);
        await checkLink(ctx, user, link);
        await write(ctx, req, user.id, [link], method === 'POST');
        return reply.status(204).send();
      },
    });
    app.route({
      method,
      url: '/api/permissions/bulk',
      ...edge({ body: permissionBulkInput, anyBody: true, need: 'table' }),
      handler: async (req, reply) => {
        const user = await requireUser(ctx, req);
        const links = edgeValue(permissionBulkInput, req.body);
        if (links.length === 0) throw badRequest('no permissions given');
        const [first] = links;
        if (links.some((l) => l.ownerType !== first.ownerType || l.propertyType !== first.propertyType)) {
          throw badRequest('all permissions of a bulk request must use the same key pair');
        }
        for (const l of links) await checkLink(ctx, user, l);
        await write(ctx, req, user.id, links, method === 'POST');
        return reply.status(204).send();
      },
    });
  }

  app.get('/api/permissions', edge({ query: linkQuery, need: 'table' }), async (req) => {
    checkAdmin(await requireUser(ctx, req));
    const { ownerKey, ownerType, ownerId, propertyKey, propertyType, propertyId } = edgeValue(
      linkQuery,
      req.query,
    );
    const rows = await linkPairsAsync(ctx.store.sql, ownerType, propertyType, ownerId, propertyId);
    return rows.map((r) => ({ [ownerKey]: r.ownerId, [propertyKey]: r.propertyId }));
  });
}
