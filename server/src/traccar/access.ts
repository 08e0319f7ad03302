// Who can see and change what (CONTRACT §6). Links live in the one `links` table (ownerType, ownerId,
// propertyType, propertyId). Visibility for a user = a direct link, or a link to a group the user can see;
// the groups a user can see are its linked groups and their sub-groups (3 levels in all, as Traccar expands
// them). Administrators pass every single-object check, but their default lists show only linked objects.
import { isRestricted, mayWrite, type Restriction } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { rowExistsAsync, type TableWithId } from '../db/repos/catalog.ts';
import {
  allDeviceIdsAsync,
  childGroupIdsAsync,
  deviceGroupIdAsync,
  deviceIdsInGroupsAsync,
  parentGroupIdAsync,
} from '../db/repos/fleet.ts';
import {
  hasLinkAsync,
  linkedPropertyIdsAsync,
  propertiesOfUserAndGroupsAsync,
  usersOfDeviceAsync,
} from '../db/repos/links.ts';
import { findUserByIdAsync } from '../db/repos/users.ts';
import { denied } from '../errors.ts';
import { serverFlagsOnce, type ServerFlags } from '../serverFlags.ts';
import type { UserRow } from './auth.ts';
import { managesInSubtree, rowIsReseller, subtreeUserIds } from './resellers.ts';

/** Link stem → table holding that object. */
export const TABLE_OF: Record<string, string> = {
  user: 'users',
  managedUser: 'users',
  device: 'devices',
  linkedDevice: 'devices',
  group: 'groups',
  geofence: 'geofences',
  notification: 'notifications',
  calendar: 'calendars',
  attribute: 'computed_attributes',
  driver: 'drivers',
  command: 'commands',
  maintenance: 'maintenances',
  order: 'orders',
  report: 'reports',
};

/** Link stem → the Java class name used in "<Class> access denied". */
export const CLASS_OF: Record<string, string> = {
  user: 'User',
  managedUser: 'User',
  device: 'Device',
  linkedDevice: 'Device',
  group: 'Group',
  geofence: 'Geofence',
  notification: 'Notification',
  calendar: 'Calendar',
  attribute: 'Attribute',
  driver: 'Driver',
  command: 'Command',
  maintenance: 'Maintenance',
  order: 'Order',
  report: 'Report',
};

/** Levels of the group hierarchy used for permission expansion (a group plus 2 levels below it). */
export const GROUP_DEPTH = 3;

type Sql = AppContext['store']['sql'];

/**
 * The server's flags, read on the store's read pool once per request or job run (serverFlags.ts: the request's
 * first check reads the row, its later checks, the gate and the refusal's language get the same answer); a flag
 * changed by another process or straight in the store is honoured on the next request.
 */
export function serverFlagsAsync(ctx: AppContext): Promise<ServerFlags> {
  return serverFlagsOnce(ctx);
}

function attributeOf(flags: ServerFlags | undefined, key: string): unknown {
  try {
    return (JSON.parse(flags?.attributes ?? '{}') as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

export async function serverAttribute(ctx: AppContext, key: string): Promise<unknown> {
  return attributeOf(await serverFlagsAsync(ctx), key);
}

/** A boolean server attribute (true or "true"). */
export async function serverSwitch(ctx: AppContext, key: string): Promise<boolean> {
  const v = await serverAttribute(ctx, key);
  return v === true || v === 'true';
}

/** A restriction applies to non-admins when set on the server or on the user (the domain's isRestricted). */
export async function restricted(ctx: AppContext, user: UserRow, key: Restriction): Promise<boolean> {
  if (user.administrator) return false; // admins: no server row read
  return isRestricted(user, await serverFlagsAsync(ctx), key);
}

export function checkAdmin(user: UserRow): void {
  if (!user.administrator) throw denied('Administrator access required');
}

export function checkManager(user: UserRow): void {
  if (!user.administrator && user.userLimit === 0) throw denied('Manager access required');
}

/** Object writes: readonly (server or user) ⇒ `Write access denied`; `kind` adds the resource's own flag. */
export async function checkWrite(
  ctx: AppContext,
  user: UserRow,
  kind?: 'device' | 'command' | 'attribute',
): Promise<void> {
  if (user.administrator) return;
  if (!mayWrite(user, await serverFlagsAsync(ctx), kind === 'attribute' ? undefined : kind))
    throw denied('Write access denied');
  if (kind === 'attribute') checkAdmin(user);
}

/** Operations Traccar refuses with `Operation restricted` (links, position deletion, reports, ad-hoc commands). */
export async function checkRestriction(ctx: AppContext, user: UserRow, key: Restriction): Promise<void> {
  if (await restricted(ctx, user, key)) throw denied('Operation restricted');
}

// ---- groups --------------------------------------------------------------------------------------------
// Every visibility read runs on the store's read pool (rowsAsync: postgres.js on PostgreSQL, the one connection
// behind sqliteTurn on SQLite), never on the synchronous handle (issue #30, session 34): each check awaits its
// reads, the walks run on their results. Inside an `inTransaction` the reads run in that transaction (query.ts).

/** `roots` plus their descendants, GROUP_DEPTH levels in all. */
export async function withSubgroups(sql: Sql, roots: number[]): Promise<Set<number>> {
  const out = new Set(roots);
  let level = roots;
  for (let depth = 1; depth < GROUP_DEPTH && level.length; depth++) {
    level = (await childGroupIdsAsync(sql, level)).filter((g) => !out.has(g));
    for (const g of level) out.add(g);
  }
  return out;
}

/** `groupId` plus its ancestors, GROUP_DEPTH levels in all (the groups whose users see its devices). */
export async function withAncestors(sql: Sql, groupId: number): Promise<number[]> {
  const out: number[] = [];
  let g = groupId;
  for (let depth = 0; depth < GROUP_DEPTH && g > 0 && !out.includes(g); depth++) {
    out.push(g);
    g = (await parentGroupIdAsync(sql, g)) ?? 0;
  }
  return out;
}

function linkedIds(sql: Sql, ownerType: string, ownerId: number, propertyType: string): Promise<number[]> {
  return linkedPropertyIdsAsync(sql, ownerType, ownerId, propertyType);
}

/** Groups a user sees: linked groups and their sub-groups. */
export async function visibleGroupIds(ctx: AppContext, userId: number): Promise<Set<number>> {
  return withSubgroups(ctx.store.sql, await linkedIds(ctx.store.sql, 'user', userId, 'group'));
}

// ---- devices -------------------------------------------------------------------------------------------

/** Devices linked to a user directly or through its groups (the default list, also for admins). */
export async function linkedDeviceIds(ctx: AppContext, userId: number): Promise<number[]> {
  const sql = ctx.store.sql;
  const [direct, groupSet] = await Promise.all([
    linkedIds(sql, 'user', userId, 'device'),
    visibleGroupIds(ctx, userId),
  ]);
  const groups = [...groupSet];
  if (!groups.length) return direct;
  const viaGroups = await deviceIdsInGroupsAsync(sql, groups);
  return [...new Set([...direct, ...viaGroups])];
}

/** Devices a user sees: linked directly or via groups; `all` (admins only) = every device. */
export function visibleDeviceIds(ctx: AppContext, user: UserRow, all = false): Promise<number[]> {
  if (all && user.administrator) return allDeviceIdsAsync(ctx.store.sql);
  return linkedDeviceIds(ctx, user.id);
}

export async function canAccessDevice(ctx: AppContext, user: UserRow, deviceId: number): Promise<boolean> {
  if (user.administrator) return true;
  return (await usersWhoSeeDevice(ctx, deviceId)).includes(user.id);
}

/** The devices of `devices` that `user` sees (canAccessDevice for each, in order; all of them for an admin). */
export async function accessibleDevicesOf<T extends { id: number }>(
  ctx: AppContext,
  user: UserRow,
  devices: readonly T[],
): Promise<T[]> {
  if (user.administrator) return [...devices];
  const out: T[] = [];
  for (const d of devices) if (await canAccessDevice(ctx, user, d.id)) out.push(d);
  return out;
}

export interface DeviceAudience {
  byDevice: Map<number, number[]>;
  /** Counts the clears: an audience read on the read pool is kept only if none happened while it was read. */
  generation: number;
}
const audiences = new WeakMap<AppContext, DeviceAudience>();

function forget(audience: DeviceAudience | undefined): void {
  if (!audience) return;
  audience.byDevice.clear();
  audience.generation++;
}

/** Forget cached audiences (called on every link, device-group and group-parent change). */
export function invalidateAccess(ctx: AppContext): void {
  forget(audiences.get(ctx));
}

/** The cache of who sees each device (cleared on the bus 'permissions' event). */
function deviceAudience(ctx: AppContext): DeviceAudience {
  let audience = audiences.get(ctx);
  if (!audience) {
    const fresh: DeviceAudience = { byDevice: new Map(), generation: 0 };
    audiences.set(ctx, fresh);
    ctx.bus.on('permissions', () => forget(fresh));
    audience = fresh;
  }
  return audience;
}

/** Keeps a device's audience read at `generation` unless the cache was cleared since. */
function keepAudience(audience: DeviceAudience, deviceId: number, users: number[], generation: number): void {
  if (generation !== audience.generation) return;
  if (audience.byDevice.size > 200_000) audience.byDevice.clear();
  audience.byDevice.set(deviceId, users);
}

/**
 * Users linked to a device directly or through its group chain (admins only if linked). Cached per device;
 * the cache is cleared on the bus 'permissions' event, which every link or hierarchy change emits. A stale
 * audience is read on the pool; one whose read overlapped a clear is answered but not kept.
 */
export async function usersWhoSeeDevice(ctx: AppContext, deviceId: number): Promise<number[]> {
  const audience = deviceAudience(ctx);
  const cached = audience.byDevice.get(deviceId);
  if (cached) return cached;
  const generation = audience.generation;
  const sql = ctx.store.sql;
  const groupId = await deviceGroupIdAsync(sql, deviceId);
  let users: number[] = [];
  if (groupId !== undefined)
    users = await usersOfDeviceAsync(sql, deviceId, await withAncestors(sql, groupId));
  keepAudience(audience, deviceId, users, generation);
  return users;
}

/**
 * Tells every listener (socket recipients, caches) that visibility changed; `devices`: the write changed only these
 * devices' rows and the links naming them (a device created or moved to another group), which the live cache then
 * reads alone again (live/cache.ts invalidateDevices).
 */
export function permissionsChanged(ctx: AppContext, devices?: readonly number[]): void {
  invalidateAccess(ctx);
  ctx.bus.emit('permissions', devices);
}

// ---- users ---------------------------------------------------------------------------------------------

const userRow = (ctx: AppContext, id: number) => findUserByIdAsync(ctx.store.sql, id);

/** A direct managedUser link, or (for a reseller) `userId` anywhere in its subtree (resellers.ts). */
export async function isManagerOf(ctx: AppContext, managerId: number, userId: number): Promise<boolean> {
  const direct = await hasLinkAsync(ctx.store.sql, {
    ownerType: 'user',
    ownerId: managerId,
    propertyType: 'managedUser',
    propertyId: userId,
  });
  if (direct) return true;
  const manager = await userRow(ctx, managerId);
  return !!manager && (await managesInSubtree(ctx, manager, userId));
}

/** The users a manager manages: its direct sub-users; a reseller's whole subtree. */
export async function managedUserIds(ctx: AppContext, managerId: number): Promise<number[]> {
  if (rowIsReseller(ctx, await userRow(ctx, managerId))) return subtreeUserIds(ctx, managerId);
  return linkedIds(ctx.store.sql, 'user', managerId, 'managedUser');
}

/** Self, admin, or manager of `userId`; else `User access denied`. */
export async function checkUserAccess(ctx: AppContext, user: UserRow, userId: number): Promise<void> {
  if (user.administrator || user.id === userId) return;
  if (user.userLimit !== 0 && (await isManagerOf(ctx, user.id, userId))) return;
  throw denied('User access denied');
}

/** Only administrators edit, delete or impersonate another administrator (even one they manage). */
export function checkNotOtherAdmin(caller: UserRow, target: { id: number; administrator: number }): void {
  if (!caller.administrator && target.administrator && caller.id !== target.id) {
    throw denied('Administrator access required');
  }
}

// ---- any object ----------------------------------------------------------------------------------------

/**
 * Ids of `type` objects visible to `userId` through links: direct user links plus links of the user's groups
 * (for devices and groups, the hierarchy rules above; for users, self and managed users).
 */
export async function visibleIds(ctx: AppContext, userId: number, type: string): Promise<number[]> {
  const sql = ctx.store.sql;
  switch (type) {
    case 'device':
    case 'linkedDevice':
      return linkedDeviceIds(ctx, userId);
    case 'group':
      return [...(await visibleGroupIds(ctx, userId))];
    case 'user':
    case 'managedUser':
      return [userId, ...(await managedUserIds(ctx, userId))];
    default: {
      const groups = [...(await visibleGroupIds(ctx, userId))];
      return propertiesOfUserAndGroupsAsync(sql, userId, type, groups);
    }
  }
}

/** Whether `user` may see object `type`/`id` (single-object check; admins always pass). */
export async function canSee(ctx: AppContext, user: UserRow, type: string, id: number): Promise<boolean> {
  if (user.administrator) return true;
  if (type === 'device' || type === 'linkedDevice') return canAccessDevice(ctx, user, id);
  if (type === 'user' || type === 'managedUser') {
    return user.id === id || (user.userLimit !== 0 && (await isManagerOf(ctx, user.id, id)));
  }
  return (await visibleIds(ctx, user.id, type)).includes(id);
}

/** Throws `<Class> access denied` unless `user` can see the object. */
export async function checkSee(ctx: AppContext, user: UserRow, type: string, id: number): Promise<void> {
  if (!(await canSee(ctx, user, type, id))) throw denied(`${CLASS_OF[type] ?? 'Object'} access denied`);
}

export async function objectExists(ctx: AppContext, type: string, id: number): Promise<boolean> {
  const table = TABLE_OF[type];
  if (!table) return false;
  return rowExistsAsync(ctx.store.sql, table as TableWithId, id);
}
