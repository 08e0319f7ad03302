// The visibility rules of access.ts for the API's hottest reads (issue #30, session 23), read on the store's read
// pool (db/pool.ts): the device list's scope (GET /api/devices, latest positions) and a single device's check
// (positions, events). The same rules and the same audience cache as access.ts's synchronous functions, which the
// rest of the server still calls; plain reads only: a write and the reads inside a transaction stay synchronous.
import type { AppContext } from '../context.ts';
import {
  allDeviceIdsAsync,
  childGroupIdsAsync,
  deviceGroupIdAsync,
  deviceIdsInGroupsAsync,
  parentGroupIdAsync,
} from '../db/repos/fleet.ts';
import { linkedPropertyIdsAsync, usersOfDeviceAsync } from '../db/repos/links.ts';
import { deviceAudience, GROUP_DEPTH, keepAudience } from './access.ts';
import type { UserRow } from './auth.ts';

type Sql = AppContext['store']['sql'];

/** `roots` plus their descendants, GROUP_DEPTH levels in all (access.ts withSubgroups). */
async function withSubgroupsAsync(sql: Sql, roots: number[]): Promise<Set<number>> {
  const out = new Set(roots);
  let level = roots;
  for (let depth = 1; depth < GROUP_DEPTH && level.length; depth++) {
    level = (await childGroupIdsAsync(sql, level)).filter((g) => !out.has(g));
    for (const g of level) out.add(g);
  }
  return out;
}

/** `groupId` plus its ancestors, GROUP_DEPTH levels in all (access.ts withAncestors). */
async function withAncestorsAsync(sql: Sql, groupId: number): Promise<number[]> {
  const out: number[] = [];
  let g = groupId;
  for (let depth = 0; depth < GROUP_DEPTH && g > 0 && !out.includes(g); depth++) {
    out.push(g);
    g = (await parentGroupIdAsync(sql, g)) ?? 0;
  }
  return out;
}

/** Devices linked to a user directly or through its groups (access.ts linkedDeviceIds). */
export async function linkedDeviceIdsAsync(ctx: AppContext, userId: number): Promise<number[]> {
  const sql = ctx.store.sql;
  const [direct, linkedGroups] = await Promise.all([
    linkedPropertyIdsAsync(sql, 'user', userId, 'device'),
    linkedPropertyIdsAsync(sql, 'user', userId, 'group'),
  ]);
  const groups = [...(await withSubgroupsAsync(sql, linkedGroups))];
  if (!groups.length) return direct;
  const viaGroups = await deviceIdsInGroupsAsync(sql, groups);
  return [...new Set([...direct, ...viaGroups])];
}

/** Devices a user sees; `all` (admins only) = every device (access.ts visibleDeviceIds). */
export function visibleDeviceIdsAsync(ctx: AppContext, user: UserRow, all = false): Promise<number[]> {
  if (all && user.administrator) return allDeviceIdsAsync(ctx.store.sql);
  return linkedDeviceIdsAsync(ctx, user.id);
}

/** Whether the user sees the device (access.ts canAccessDevice), its audience kept in access.ts's cache. */
export async function canAccessDeviceAsync(
  ctx: AppContext,
  user: UserRow,
  deviceId: number,
): Promise<boolean> {
  if (user.administrator) return true;
  const audience = deviceAudience(ctx);
  const cached = audience.byDevice.get(deviceId);
  if (cached) return cached.includes(user.id);
  const generation = audience.generation;
  const sql = ctx.store.sql;
  const groupId = await deviceGroupIdAsync(sql, deviceId);
  let users: number[] = [];
  if (groupId !== undefined)
    users = await usersOfDeviceAsync(sql, deviceId, await withAncestorsAsync(sql, groupId));
  // a link or hierarchy change while it was read cleared the cache: this audience may be older, it is not kept
  keepAudience(audience, deviceId, users, generation);
  return users.includes(user.id);
}
