// Shares (CONTRACT §2 last row): a temporary read-only user linked to one device or group, logged in with the
// returned token through GET /api/session?token=. Refused when the server attribute disableShare is set.
import type { FastifyInstance } from 'fastify';
import { shareDeviceForm, shareGroupForm } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { badRequest, denied } from '../errors.ts';
import { checkSee, permissionsChanged, serverSwitch } from './access.ts';
import { createSessionToken, requireUser, type UserRow } from './auth.ts';
import { getRow } from './crud.ts';
import { formBody, parse } from './http.ts';
import { insertUser } from './users.ts';

/** Creates (or renews) the share user and returns a token valid until `expiration`. */
export async function createShare(
  ctx: AppContext,
  owner: UserRow,
  target: { type: 'device' | 'group'; id: number },
  expiration: Date,
): Promise<string> {
  if (serverSwitch(ctx, 'disableShare')) throw denied('Sharing is disabled');
  if (owner.temporary) throw denied('Temporary user');
  // A share never outlives its owner's account.
  if (owner.expirationTime && Date.parse(owner.expirationTime) < expiration.getTime()) {
    expiration = new Date(owner.expirationTime);
  }
  if (expiration.getTime() <= Date.now()) throw badRequest('expiration must be in the future');
  checkSee(ctx, owner, target.type, target.id);
  const row = getRow(ctx, target.type === 'device' ? 'devices' : 'groups', target.id);
  if (!row) throw badRequest(`${target.type === 'device' ? 'Device' : 'Group'} ${target.id} not found`);
  const email =
    target.type === 'device' ? `${owner.email}:${String(row.uniqueId)}` : `${owner.email}:group:${target.id}`;
  const sql = ctx.store.sqlite;
  const existing = sql.prepare('SELECT id FROM users WHERE lower(email) = lower(?)').get(email) as
    { id: number } | undefined;
  let userId: number;
  if (existing) {
    userId = existing.id;
    sql
      .prepare(
        'UPDATE users SET expirationTime = ?, temporary = 1, readonly = 1, limitCommands = 1, disabled = 0 WHERE id = ?',
      )
      .run(expiration.toISOString(), userId);
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
  permissionsChanged(ctx);
  return createSessionToken(ctx, userId, expiration);
}

export function registerShare(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/share/device', async (req, reply) => {
    const user = await requireUser(ctx, req);
    const form = parse(shareDeviceForm, formBody(req));
    const token = await createShare(
      ctx,
      user,
      { type: 'device', id: form.deviceId },
      new Date(form.expiration),
    );
    return reply.type('text/plain; charset=utf-8').send(token);
  });
  app.post('/api/share/group', async (req, reply) => {
    const user = await requireUser(ctx, req);
    const form = parse(shareGroupForm, formBody(req));
    const token = await createShare(
      ctx,
      user,
      { type: 'group', id: form.groupId },
      new Date(form.expiration),
    );
    return reply.type('text/plain; charset=utf-8').send(token);
  });
}
