// Shares (CONTRACT §2 last row): a temporary read-only user linked to one device or group, logged in with the
// returned token through GET /api/session?token=. Refused when the server attribute disableShare is set.
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { shareDeviceForm, shareGroupForm } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { addLink } from '../db/repos/links.ts';
import { inTransaction } from '../db/repos/query.ts';
import {
  deleteTokenSessions,
  deleteUserSessions,
  revokeTokenById,
  setTokenExpiry,
  setTokenSessionsExpiry,
} from '../db/repos/sessions.ts';
import {
  deleteShare,
  findShare,
  insertShare,
  latestLiveShareExpiry,
  setShareExpiry,
} from '../db/repos/shares.ts';
import { disableUser, enableUntil, markGuest, userIdByEmailAsync } from '../db/repos/users.ts';
import { badRequest, denied } from '../errors.ts';
import { checkSee, checkWrite, permissionsChanged, serverSwitch } from './access.ts';
import { createSessionToken, requireUser, type UserRow } from './auth.ts';
import { sha256 } from './passwordHash.ts';
import { getRowAsync } from './crud.ts';
import { edge, edgeValue } from '../edge.ts';
import { insertUser } from './users.ts';

export interface CreatedShare {
  /** Row of the shares table (listed by GET /{ns}/shares). */
  id: number;
  token: string;
  guestId: number;
  expirationTime: string;
}

/**
 * Creates a share: a temporary read-only guest linked to one device or group and a login token valid until
 * `expiration` (capped at the owner's own expiry), recorded in the shares table so it can be listed, extended
 * and revoked. Traccar's routes (`dedicated` false) reuse the guest `<owner email>:<uniqueId>` as Traccar does;
 * the extension API gives every link its own guest, so revoking one link never ends another.
 */
export async function createShare(
  ctx: AppContext,
  owner: UserRow,
  target: { type: 'device' | 'group'; id: number },
  expiration: Date,
  dedicated = false,
): Promise<CreatedShare> {
  if (await serverSwitch(ctx, 'disableShare')) throw denied('Sharing is disabled');
  if (owner.temporary) throw denied('Temporary user');
  // The web app offers no share to a read-only user (deviceActionButtons); the server refuses it too.
  await checkWrite(ctx, owner);
  // A share never outlives its owner's account.
  if (owner.expirationTime && Date.parse(owner.expirationTime) < expiration.getTime()) {
    expiration = new Date(owner.expirationTime);
  }
  if (expiration.getTime() <= Date.now()) throw badRequest('expiration must be in the future');
  await checkSee(ctx, owner, target.type, target.id);
  const row = await getRowAsync(ctx, target.type === 'device' ? 'devices' : 'groups', target.id);
  if (!row) throw badRequest(`${target.type === 'device' ? 'Device' : 'Group'} ${target.id} not found`);
  const base =
    target.type === 'device' ? `${owner.email}:${String(row.uniqueId)}` : `${owner.email}:group:${target.id}`;
  const email = dedicated ? `${base}:${randomBytes(6).toString('hex')}` : base;
  const sql = ctx.store.sql;
  const existing = await userIdByEmailAsync(sql, email);
  let userId: number;
  if (existing !== undefined) {
    userId = existing;
    await markGuest(sql, userId);
  } else {
    const created = await insertUser(ctx, {
      name: String(row.name),
      email,
      temporary: true,
      readonly: true,
      // Traccar's defaults (web.shareDeviceCommands/Reports = false): guests send no commands, run no reports.
      limitCommands: true,
      disableReports: true,
      deviceLimit: 0,
      expirationTime: expiration.toISOString(),
      attributes: { isShared: true },
    });
    userId = created.id;
  }
  await addLink(sql, {
    ownerType: 'user',
    ownerId: userId,
    propertyType: target.type,
    propertyId: target.id,
  });
  const token = await createSessionToken(ctx, userId, expiration);
  const now = new Date().toISOString();
  const id = await insertShare(sql, {
    creatorId: owner.id,
    guestId: userId,
    token,
    tokenId: sha256(token),
    deviceId: target.type === 'device' ? target.id : null,
    groupId: target.type === 'group' ? target.id : null,
    expirationTime: expiration.toISOString(),
    createdAt: now,
  });
  await syncGuestExpiry(ctx, userId);
  permissionsChanged(ctx);
  return { id, token, guestId: userId, expirationTime: expiration.toISOString() };
}

/**
 * The guest's expirationTime is its latest live link's (a reused guest keeps working until its last link
 * ends; before, a newer, shorter link cut an older, longer one short). No live link left ⇒ the guest is disabled.
 */
export async function syncGuestExpiry(ctx: AppContext, guestId: number): Promise<void> {
  const sql = ctx.store.sql;
  const until = await latestLiveShareExpiry(sql, guestId);
  if (until && Date.parse(until) > Date.now()) {
    await enableUntil(sql, guestId, until);
  } else {
    await disableUser(sql, guestId);
    await deleteUserSessions(sql, guestId);
    ctx.bus.emit('signedOut', guestId);
  }
}

/** Changes a share's expiry: the token, the sessions it opened and the guest follow. */
export async function extendShare(ctx: AppContext, shareId: number, expiration: Date): Promise<void> {
  const sql = ctx.store.sql;
  const share = await findShare(sql, shareId);
  if (!share) return;
  const iso = expiration.toISOString();
  await setShareExpiry(sql, shareId, iso);
  await setTokenExpiry(sql, share.tokenId, iso);
  await setTokenSessionsExpiry(sql, share.tokenId, iso);
  await syncGuestExpiry(ctx, share.guestId);
}

/**
 * Revokes a share at once: its token stops logging in, the sessions it opened end (their sockets close), and a
 * guest with no other live link is disabled. The row is removed. The token, its sessions and the row go in one
 * asynchronous transaction (issue #30: every write of tokens, sessions and shares is asynchronous, so no
 * synchronous statement waits for its row locks; docs/decisions/41, session 32).
 */
export async function revokeShare(ctx: AppContext, shareId: number): Promise<void> {
  const sql = ctx.store.sql;
  const share = await findShare(sql, shareId);
  if (!share) return;
  await inTransaction(sql, async (tx) => {
    await revokeTokenById(tx, share.tokenId);
    await deleteTokenSessions(tx, share.tokenId);
    await deleteShare(tx, shareId);
  });
  ctx.bus.emit('signedOut', share.guestId);
  await syncGuestExpiry(ctx, share.guestId);
  permissionsChanged(ctx);
}

export function registerShare(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/share/device',
    edge({ body: shareDeviceForm, media: 'form', need: 'table' }),
    async (req, reply) => {
      const user = await requireUser(ctx, req);
      const form = edgeValue(shareDeviceForm, req.body);
      const share = await createShare(
        ctx,
        user,
        { type: 'device', id: form.deviceId },
        new Date(form.expiration),
      );
      return reply.type('text/plain; charset=utf-8').send(share.token);
    },
  );
  app.post(
    '/api/share/group',
    edge({ body: shareGroupForm, media: 'form', need: 'table' }),
    async (req, reply) => {
      const user = await requireUser(ctx, req);
      const form = edgeValue(shareGroupForm, req.body);
      const share = await createShare(
        ctx,
        user,
        { type: 'group', id: form.groupId },
        new Date(form.expiration),
      );
      return reply.type('text/plain; charset=utf-8').send(share.token);
    },
  );
}
