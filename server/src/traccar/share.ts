// Shares (CONTRACT §2 last row): a temporary read-only user linked to one device or group, logged in with the
// returned token through GET /api/session?token=. Refused when the server attribute disableShare is set.
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { shareDeviceForm, shareGroupForm } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { badRequest, denied } from '../errors.ts';
import { checkSee, checkWrite, permissionsChanged, serverSwitch } from './access.ts';
import { createSessionToken, requireUser, sha256, type UserRow } from './auth.ts';
import { getRow } from './crud.ts';
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
  if (serverSwitch(ctx, 'disableShare')) throw denied('Sharing is disabled');
  if (owner.temporary) throw denied('Temporary user');
  // The web app offers no share to a read-only user (deviceActionButtons); the server refuses it too.
  checkWrite(ctx, owner);
  // A share never outlives its owner's account.
  if (owner.expirationTime && Date.parse(owner.expirationTime) < expiration.getTime()) {
    expiration = new Date(owner.expirationTime);
  }
  if (expiration.getTime() <= Date.now()) throw badRequest('expiration must be in the future');
  checkSee(ctx, owner, target.type, target.id);
  const row = getRow(ctx, target.type === 'device' ? 'devices' : 'groups', target.id);
  if (!row) throw badRequest(`${target.type === 'device' ? 'Device' : 'Group'} ${target.id} not found`);
  const base =
    target.type === 'device' ? `${owner.email}:${String(row.uniqueId)}` : `${owner.email}:group:${target.id}`;
  const email = dedicated ? `${base}:${randomBytes(6).toString('hex')}` : base;
  const sql = ctx.store.sql;
  const existing = sql.prepare('SELECT id FROM users WHERE lower(email) = lower(?)').get(email) as
    { id: number } | undefined;
  let userId: number;
  if (existing) {
    userId = existing.id;
    sql
      .prepare('UPDATE users SET temporary = 1, readonly = 1, limitCommands = 1, disabled = 0 WHERE id = ?')
      .run(userId);
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
  sql.prepare('INSERT OR IGNORE INTO links VALUES (?, ?, ?, ?)').run('user', userId, target.type, target.id);
  const token = createSessionToken(ctx, userId, expiration);
  const now = new Date().toISOString();
  const id = Number(
    sql
      .prepare(
        `INSERT INTO shares (creatorId, guestId, token, tokenId, deviceId, groupId, expirationTime, createdAt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        owner.id,
        userId,
        token,
        sha256(token),
        target.type === 'device' ? target.id : null,
        target.type === 'group' ? target.id : null,
        expiration.toISOString(),
        now,
      ).lastInsertRowid,
  );
  syncGuestExpiry(ctx, userId);
  permissionsChanged(ctx);
  return { id, token, guestId: userId, expirationTime: expiration.toISOString() };
}

/**
 * The guest's expirationTime is its latest live link's (a reused guest keeps working until its last link
 * ends; before, a newer, shorter link cut an older, longer one short). No live link left ⇒ the guest is disabled.
 */
export function syncGuestExpiry(ctx: AppContext, guestId: number): void {
  const sql = ctx.store.sql;
  const latest = sql
    .prepare(
      `SELECT max(s.expirationTime) AS until FROM shares s JOIN tokens t ON t.id = s.tokenId
       WHERE s.guestId = ? AND t.revoked = 0`,
    )
    .get(guestId) as { until: string | null };
  if (latest.until && Date.parse(latest.until) > Date.now()) {
    sql.prepare('UPDATE users SET expirationTime = ?, disabled = 0 WHERE id = ?').run(latest.until, guestId);
  } else {
    sql.prepare('UPDATE users SET disabled = 1 WHERE id = ?').run(guestId);
    sql.prepare('DELETE FROM sessions WHERE userId = ?').run(guestId);
    ctx.bus.emit('signedOut', guestId);
  }
}

/** Changes a share's expiry: the token, the sessions it opened and the guest follow. */
export function extendShare(ctx: AppContext, shareId: number, expiration: Date): void {
  const sql = ctx.store.sql;
  const share = sql.prepare('SELECT guestId, tokenId FROM shares WHERE id = ?').get(shareId) as
    { guestId: number; tokenId: string } | undefined;
  if (!share) return;
  const iso = expiration.toISOString();
  sql.prepare('UPDATE shares SET expirationTime = ? WHERE id = ?').run(iso, shareId);
  sql.prepare('UPDATE tokens SET expiresAt = ? WHERE id = ?').run(iso, share.tokenId);
  sql.prepare('UPDATE sessions SET expiresAt = ? WHERE tokenId = ?').run(iso, share.tokenId);
  syncGuestExpiry(ctx, share.guestId);
}

/**
 * Revokes a share at once: its token stops logging in, the sessions it opened end (their sockets close), and a
 * guest with no other live link is disabled. The row is removed.
 */
export function revokeShare(ctx: AppContext, shareId: number): void {
  const sql = ctx.store.sql;
  const share = sql.prepare('SELECT guestId, tokenId FROM shares WHERE id = ?').get(shareId) as
    { guestId: number; tokenId: string } | undefined;
  if (!share) return;
  sql.transaction(() => {
    sql.prepare('UPDATE tokens SET revoked = 1 WHERE id = ?').run(share.tokenId);
    sql.prepare('DELETE FROM sessions WHERE tokenId = ?').run(share.tokenId);
    sql.prepare('DELETE FROM shares WHERE id = ?').run(shareId);
  })();
  ctx.bus.emit('signedOut', share.guestId);
  syncGuestExpiry(ctx, share.guestId);
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
