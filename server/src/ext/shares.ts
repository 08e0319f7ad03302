// Shared links of the extension API (SPEC §7 client A, §6 Plus feature; JSON bodies):
//   GET    /{ns}/shares        the caller's links (an administrator: everyone's; a manager: also its users')
//   POST   /{ns}/shares        {deviceId | groupId, expirationTime} ⇒ the new share with its token
//   PUT    /{ns}/shares/{id}   {expirationTime} ⇒ the share with its new expiry
//   DELETE /{ns}/shares/{id}   revokes the link at once (token, guest sessions and sockets) ⇒ 204
// The advanced `share` bits (view, create, edit, delete) are checked by the authorization hook before these
// handlers run (packages/domain/src/apiPermissions.ts). Refusals and bad input answer in the caller's language.
// Embedded mode here; in gateway mode the same routes are sharesGateway.ts (the upstream Traccar holds the guests).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  shareCreateSchema,
  shareExpiryIssue,
  shareUpdateSchema,
  type MessageKey,
  type ShareRecord,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { edge, edgeValue, idParams } from '../edge.ts';
import { ApiError } from '../errors.ts';
import { invalidInput } from '../invalid.ts';
import { refused } from '../refusal.ts';
import { checkWrite, managedUserIds, serverSwitch } from '../traccar/access.ts';
import { requireUser, type UserRow } from '../traccar/auth.ts';
import { logAction } from '../traccar/audit.ts';
import { createShare, extendShare, revokeShare } from '../traccar/share.ts';
import { listShares, listedShare, type ListedShare } from '../db/repos/shares.ts';
import { findUserByIdAsync } from '../db/repos/users.ts';

export const toShareRecord = (r: ListedShare): ShareRecord => ({
  id: r.id,
  token: r.token,
  deviceId: r.deviceId,
  groupId: r.groupId,
  name: r.name ?? '',
  expirationTime: r.expirationTime,
  createdAt: r.createdAt,
  creatorId: r.creatorId,
  creatorName: r.creatorName ?? '',
});

/** Creators whose links the caller manages: itself, and a manager's users; null = everyone (administrator). */
async function visibleCreators(ctx: AppContext, user: UserRow): Promise<number[] | null> {
  if (user.administrator) return null;
  return [user.id, ...(await managedUserIds(ctx, user.id))];
}

async function sharesOf(ctx: AppContext, user: UserRow): Promise<ShareRecord[]> {
  return (await listShares(ctx.store.sql, await visibleCreators(ctx, user))).map(toShareRecord);
}

type Who = Parameters<typeof invalidInput>[2];

/** A message in the caller's language (the text of a translated 400). */
export const translateFor = (ctx: AppContext, req: FastifyRequest, user: Who, key: MessageKey) =>
  invalidInput(ctx, req, user, key).message;

/** The body's expiry as a Date, or a translated 400. */
export function shareExpiry(ctx: AppContext, req: FastifyRequest, user: Who, value: string): Date {
  const issue = shareExpiryIssue(value, Date.now());
  if (issue) throw invalidInput(ctx, req, user, issue);
  return new Date(value);
}

/** The message of a bad share body: the expiry's, else the target's (zod's own texts become the field's). */
export const shareInvalid = (field: string): MessageKey =>
  field === 'expirationTime' ? 'share.expiryInvalid' : 'share.targetRequired';

export function registerShares(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.mode === 'gateway') return; // sharesGateway.ts: the upstream Traccar holds the guests
  const ns = ctx.config.ns;

  /** The signed-in caller, once the Plus edition and the embedded store are known to be there. */
  async function caller(req: FastifyRequest): Promise<UserRow> {
    const user = await requireUser(ctx, req);
    if (ctx.config.edition !== 'plus') throw refused(ctx, req, user, 'share.needsPlus');
    return user;
  }

  /** One share the caller manages, else 404 (a foreign id looks like a missing one). */
  async function visibleShare(req: FastifyRequest, user: UserRow): Promise<ShareRecord> {
    const found = await listOne(edgeValue(idParams, req.params).id);
    const creators = await visibleCreators(ctx, user);
    if (!found || (creators && !creators.includes(found.creatorId)))
      throw new ApiError(404, translateFor(ctx, req, user, 'share.notFound'), 'WebApplicationException');
    return found;
  }

  const listOne = async (id: number): Promise<ShareRecord | null> => {
    const row = await listedShare(ctx.store.sql, id);
    return row ? toShareRecord(row) : null;
  };

  // the share bits (the table); the Plus edition and the switch are the handlers' refusals
  app.get(`/${ns}/shares`, edge({ need: 'table' }), async (req) => sharesOf(ctx, await caller(req)));

  const createEdge = edge({ body: shareCreateSchema, need: 'table', invalid: shareInvalid });
  app.post(`/${ns}/shares`, createEdge, async (req, reply) => {
    const user = await caller(req);
    if (await serverSwitch(ctx, 'disableShare')) throw refused(ctx, req, user, 'share.disabled');
    const input = edgeValue(shareCreateSchema, req.body);
    const until = shareExpiry(ctx, req, user, input.expirationTime);
    const target =
      input.deviceId !== undefined
        ? { type: 'device' as const, id: input.deviceId }
        : { type: 'group' as const, id: input.groupId! };
    const created = await createShare(ctx, user, target, until, true);
    await logAction(ctx, req, user.id, 'create', 'share', created.id, { [`${target.type}Id`]: target.id });
    return reply.status(200).send(await listOne(created.id));
  });

  const updateEdge = edge({
    params: idParams,
    body: shareUpdateSchema,
    need: 'table',
    invalid: shareInvalid,
  });
  app.put(`/${ns}/shares/:id`, updateEdge, async (req) => {
    const user = await caller(req);
    const share = await visibleShare(req, user);
    await checkWrite(ctx, user); // a read-only user changes no link
    const input = edgeValue(shareUpdateSchema, req.body);
    let until = shareExpiry(ctx, req, user, input.expirationTime);
    // Never past the account of the user who created it (as on creation).
    const creator = await findUserByIdAsync(ctx.store.sql, share.creatorId);
    if (creator?.expirationTime && Date.parse(creator.expirationTime) < until.getTime())
      until = new Date(creator.expirationTime);
    await extendShare(ctx, share.id, until);
    await logAction(ctx, req, user.id, 'edit', 'share', share.id, { expirationTime: until.toISOString() });
    return await listOne(share.id);
  });

  app.delete(`/${ns}/shares/:id`, edge({ params: idParams, need: 'table' }), async (req, reply) => {
    const user = await caller(req);
    const share = await visibleShare(req, user);
    await checkWrite(ctx, user);
    await revokeShare(ctx, share.id);
    await logAction(ctx, req, user.id, 'remove', 'share', share.id);
    return reply.status(204).send();
  });
}
