// Who can see and change what (CONTRACT §6). Links live in the one `links` table (ownerType, ownerId,
// propertyType, propertyId). Visibility for a user = a direct link, or a link to a group the user can see;
// the groups a user can see are its linked groups and their sub-groups (3 levels in all, as Traccar expands
// them). Administrators pass every single-object check, but their default lists show only linked objects.
import { isRestricted, mayWrite, type Restriction } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { rowExists, type TableWithId } from '../db/repos/catalog.ts';
import {
  allDeviceIds,
  childGroupIds,
  deviceGroupId,
  deviceIdsInGroups,
  parentGroupId,
} from '../db/repos/fleet.ts';
import { hasLink, linkedPropertyIds, propertiesOfUserAndGroups, usersOfDevice } from '../db/repos/links.ts';
import { serverFlagsRow } from '../db/repos/server.ts';
import { findUserById } from '../db/repos/users.ts';
import { denied } from '../errors.ts';
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

export interface ServerFlags {
  readonly: number;
  deviceReadonly: number;
  limitCommands: number;
  disableReports: number;
  fixedEmail: number;
  registration: number;
  attributes: string;
}

export function serverFlags(ctx: AppContext): ServerFlags {
  return serverFlagsRow(ctx.store.sql) as ServerFlags;
}

export function serverAttribute(ctx: AppContext, key: string): unknown {
  try {
    return (JSON.parse(serverFlags(ctx).attributes) as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** A boolean server attribute (true or "true"). */
export function serverSwitch(ctx: AppContext, key: string): boolean {
  const v = serverAttribute(ctx, key);
  return v === true || v === 'true';
}

/** A restriction applies to non-admins when set on the server or on the user (the domain's isRestricted). */
export function restricted(ctx: AppContext, user: UserRow, key: Restriction): boolean {
  return !user.administrator && isRestricted(user, serverFlags(ctx), key); // admins: no server row read
}

export function checkAdmin(user: UserRow): void {
  if (!user.administrator) throw denied('Administrator access required');
}

export function checkManager(user: UserRow): void {
  if (!user.administrator && user.userLimit === 0) throw denied('Manager access required');
}

/** Object writes: readonly (server or user) ⇒ `Write access denied`; `kind` adds the resource's own flag. */
export function checkWrite(ctx: AppContext, user: UserRow, kind?: 'device' | 'command' | 'attribute'): void {
  if (user.administrator) return;
  if (!mayWrite(user, serverFlags(ctx), kind === 'attribute' ? undefined : kind))
    throw denied('Write access denied');
  if (kind === 'attribute') checkAdmin(user);
}

/** Operations Traccar refuses with `Operation restricted` (links, position deletion, reports, ad-hoc commands). */
export function checkRestriction(ctx: AppContext, user: UserRow, key: Restriction): void {
  if (restricted(ctx, user, key)) throw denied('Operation restricted');
}

// ---- groups --------------------------------------------------------------------------------------------

/** `roots` plus their descendants, GROUP_DEPTH levels in all. */
export function withSubgroups(sql: Sql, roots: number[]): Set<number> {
  const out = new Set(roots);
  let level = roots;
  for (let depth = 1; depth < GROUP_DEPTH && level.length; depth++) {
    level = childGroupIds(sql, level).filter((g) => !out.has(g));
    for (const g of level) out.add(g);
  }
  return out;
}

/** `groupId` plus its ancestors, GROUP_DEPTH levels in all (the groups whose users see its devices). */
export function withAncestors(sql: Sql, groupId: number): number[] {
  const out: number[] = [];
  let g = groupId;
  for (let depth = 0; depth < GROUP_DEPTH && g > 0 && !out.includes(g); depth++) {
    out.push(g);
    g = parentGroupId(sql, g) ?? 0;
  }
  return out;
}

function linkedIds(sql: Sql, ownerType: string, ownerId: number, propertyType: string): number[] {
  return linkedPropertyIds(sql, ownerType, ownerId, propertyType);
}

/** Groups a user sees: linked groups and their sub-groups. */
export function visibleGroupIds(ctx: AppContext, userId: number): Set<number> {
  return withSubgroups(ctx.store.sql, linkedIds(ctx.store.sql, 'user', userId, 'group'));
}

// ---- devices -------------------------------------------------------------------------------------------

/** Devices linked to a user directly or through its groups (the default list, also for admins). */
export function linkedDeviceIds(ctx: AppContext, userId: number): number[] {
  const sql = ctx.store.sql;
  const direct = linkedIds(sql, 'user', userId, 'device');
  const groups = [...visibleGroupIds(ctx, userId)];
  if (!groups.length) return direct;
  const viaGroups = deviceIdsInGroups(sql, groups);
  return [...new Set([...direct, ...viaGroups])];
}

/** Devices a user sees: linked directly or via groups; `all` (admins only) = every device. */
export function visibleDeviceIds(ctx: AppContext, user: UserRow, all = false): number[] {
  if (all && user.administrator) return allDeviceIds(ctx.store.sql);
  return linkedDeviceIds(ctx, user.id);
}

export function canAccessDevice(ctx: AppContext, user: UserRow, deviceId: number): boolean {
  if (user.administrator) return true;
  return usersWhoSeeDevice(ctx, deviceId).includes(user.id);
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

/** The cache of who sees each device (cleared on the bus 'permissions' event; accessReads.ts reads it too). */
export function deviceAudience(ctx: AppContext): DeviceAudience {
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
export function keepAudience(
  audience: DeviceAudience,
  deviceId: number,
  users: number[],
  generation = audience.generation,
): void {
  if (generation !== audience.generation) return;
  if (audience.byDevice.size > 200_000) audience.byDevice.clear();
  audience.byDevice.set(deviceId, users);
}

/**
 * Users linked to a device directly or through its group chain (admins only if linked). Cached per device;
 * the cache is cleared on the bus 'permissions' event, which every link or hierarchy change emits.
 */
export function usersWhoSeeDevice(ctx: AppContext, deviceId: number): number[] {
  const audience = deviceAudience(ctx);
  const cached = audience.byDevice.get(deviceId);
  if (cached) return cached;
  const sql = ctx.store.sql;
  const groupId = deviceGroupId(sql, deviceId);
  let users: number[] = [];
  if (groupId !== undefined) users = usersOfDevice(sql, deviceId, withAncestors(sql, groupId));
  keepAudience(audience, deviceId, users);
  return users;
}

/** Tells every listener (socket recipients, caches) that visibility changed. */
export function permissionsChanged(ctx: AppContext): void {
  invalidateAccess(ctx);
  ctx.bus.emit('permissions');
}

// ---- users ---------------------------------------------------------------------------------------------

const userRow = (ctx: AppContext, id: number) => findUserById(ctx.store.sql, id);

/** A direct managedUser link, or (for a reseller) `userId` anywhere in its subtree (resellers.ts). */
export function isManagerOf(ctx: AppContext, managerId: number, userId: number): boolean {
  const direct = hasLink(ctx.store.sql, {
    ownerType: 'user',
    ownerId: managerId,
    propertyType: 'managedUser',
    propertyId: userId,
  });
  if (direct) return true;
  const manager = userRow(ctx, managerId);
  return !!manager && managesInSubtree(ctx, manager, userId);
}

/** The users a manager manages: its direct sub-users; a reseller's whole subtree. */
export function managedUserIds(ctx: AppContext, managerId: number): number[] {
  if (rowIsReseller(ctx, userRow(ctx, managerId))) return subtreeUserIds(ctx, managerId);
  return linkedIds(ctx.store.sql, 'user', managerId, 'managedUser');
}

/** Self, admin, or manager of `userId`; else `User access denied`. */
export function checkUserAccess(ctx: AppContext, user: UserRow, userId: number): void {
  if (user.administrator || user.id === userId) return;
  if (user.userLimit !== 0 && isManagerOf(ctx, user.id, userId)) return;
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
export function visibleIds(ctx: AppContext, userId: number, type: string): number[] {
  const sql = ctx.store.sql;
  switch (type) {
    case 'device':
    case 'linkedDevice':
      return linkedDeviceIds(ctx, userId);
    case 'group':
      return [...visibleGroupIds(ctx, userId)];
    case 'user':
    case 'managedUser':
      return [userId, ...managedUserIds(ctx, userId)];
    default: {
      const groups = [...visibleGroupIds(ctx, userId)];
      return propertiesOfUserAndGroups(sql, userId, type, groups);
    }
  }
}

/** Whether `user` may see object `type`/`id` (single-object check; admins always pass). */
export function canSee(ctx: AppContext, user: UserRow, type: string, id: number): boolean {
  if (user.administrator) return true;
  if (type === 'device' || type === 'linkedDevice') return canAccessDevice(ctx, user, id);
  if (type === 'user' || type === 'managedUser') {
    return user.id === id || (user.userLimit !== 0 && isManagerOf(ctx, user.id, id));
  }
  return visibleIds(ctx, user.id, type).includes(id);
}

/** Throws `<Class> access denied` unless `user` can see the object. */
export function checkSee(ctx: AppContext, user: UserRow, type: string, id: number): void {
  if (!canSee(ctx, user, type, id)) throw denied(`${CLASS_OF[type] ?? 'Object'} access denied`);
}

export function objectExists(ctx: AppContext, type: string, id: number): boolean {
  const table = TABLE_OF[type];
  if (!table) return false;
  return rowExists(ctx.store.sql, table as TableWithId, id);
}
