// First start: an empty store gets the administrator named in the configuration
// (RASTRO_ADMIN_EMAIL / RASTRO_ADMIN_PASSWORD; the value is both email and login).
import type { AppContext } from '../context.ts';
import { anyUserAsync } from '../db/repos/users.ts';
import type { UserRow } from './auth.ts';
import { insertUser } from './users.ts';

export async function ensureAdmin(ctx: AppContext): Promise<UserRow | null> {
  if (await anyUserAsync(ctx.store.sql)) return null;
  return insertUser(ctx, {
    name: 'admin',
    email: ctx.config.adminEmail,
    login: ctx.config.adminEmail,
    password: ctx.config.adminPassword,
    administrator: true,
    deviceLimit: -1,
    userLimit: -1,
  });
}
