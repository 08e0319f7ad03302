// SPEC §2 (user menu, side menu) and §6 (roles, flags, advanced permission evaluation).
//
// Permission string: 32 hex characters (optionally written as four groups of 8 separated by '-', ' ', ':' or
// '.'), expanded to 128 bits. Bit index semantics: bit i is the i-th bit reading the hex string left to right,
// most significant bit of each hex digit first. So bit 0 is the MSB of the first character, bit 8 is the MSB of
// the third character, bit 127 is the LSB of the last character.
import { attrBool, attrPresent, DEFAULT_NS, nsKey } from './attributes.ts';
import type { Attributes, User } from './types.ts';

export const PERMISSION_BITS = 128;
export const PERMISSION_HEX_LENGTH = 32;

// ---------------------------------------------------------------------------------------------------------------
// Permission string: parse / format / validate

const SEPARATORS = /[\s\-:.]/g;

/** True when the string is 32 hex characters, optionally in four groups of 8 with separators. */
export function isValidPermissionString(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{32}$/.test(trimmed)) return true;
  return /^[0-9a-fA-F]{8}([\s\-:.][0-9a-fA-F]{8}){3}$/.test(trimmed);
}

/** Expands a permission string to 128 booleans (bit i = i-th bit left to right). Null when invalid. */
export function parsePermissionString(value: unknown): boolean[] | null {
  if (!isValidPermissionString(value)) return null;
  const hex = value.trim().replace(SEPARATORS, '');
  const bits: boolean[] = new Array<boolean>(PERMISSION_BITS).fill(false);
  for (let c = 0; c < PERMISSION_HEX_LENGTH; c++) {
    const nibble = parseInt(hex[c], 16);
    for (let b = 0; b < 4; b++) bits[c * 4 + b] = ((nibble >> (3 - b)) & 1) === 1;
  }
  return bits;
}

/** Packs bits (missing entries = 0) into the canonical 32 lower-case hex characters. */
export function formatPermissionString(bits: readonly boolean[]): string {
  let out = '';
  for (let c = 0; c < PERMISSION_HEX_LENGTH; c++) {
    let nibble = 0;
    for (let b = 0; b < 4; b++) if (bits[c * 4 + b]) nibble |= 1 << (3 - b);
    out += nibble.toString(16);
  }
  return out;
}

/** Four groups of 8 separated by `separator` (display form). */
export function groupPermissionString(hex: string, separator = ' '): string {
  const clean = hex.replace(SEPARATORS, '');
  return [0, 8, 16, 24].map((i) => clean.slice(i, i + 8)).join(separator);
}

/** Reads one bit of a permission string; false when invalid or out of range. */
export function permissionBit(value: unknown, index: number): boolean {
  if (!Number.isInteger(index) || index < 0 || index >= PERMISSION_BITS) return false;
  const bits = parsePermissionString(value);
  return bits ? bits[index] : false;
}

/** Returns a new canonical string with bit `index` set to `on`. Invalid input starts from all zeros. */
export function setPermissionBit(value: unknown, index: number, on: boolean): string {
  if (!Number.isInteger(index) || index < 0 || index >= PERMISSION_BITS) {
    throw new RangeError(`permission bit out of range: ${index}`);
  }
  const bits = parsePermissionString(value) ?? new Array<boolean>(PERMISSION_BITS).fill(false);
  bits[index] = on;
  return formatPermissionString(bits);
}

/** Canonical string with exactly the given bits set. */
export function permissionStringFromBits(indices: Iterable<number>): string {
  let s = formatPermissionString([]);
  for (const i of indices) s = setPermissionBit(s, i, true);
  return s;
}

export const ALL_PERMISSIONS = 'f'.repeat(PERMISSION_HEX_LENGTH);
export const NO_PERMISSIONS = '0'.repeat(PERMISSION_HEX_LENGTH);

// ---------------------------------------------------------------------------------------------------------------
// Bit layout

/** Menu bits of SPEC §6. Each one is also the "view" bit of its area below. */
export const MENU_BITS = {
  devices: 8,
  users: 16,
  notifications: 32,
  events: 36,
  geofence: 40,
  groups: 48,
  commands: 56,
  computed: 64,
  reports: 72,
  drivers: 80,
  calendars: 88,
  maintenance: 96,
} as const;
export type MenuItem = keyof typeof MENU_BITS;

export const PERMISSION_ACTIONS = [
  'view',
  'lock',
  'unlock',
  'command',
  'create',
  'edit',
  'delete',
  'selfEdit',
] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export const PERMISSION_AREAS = [
  'devices',
  'reports',
  'geofences',
  'commands',
  'groups',
  'notifications',
  'events',
  'drivers',
  'calendars',
  'anchor',
  'share',
  'users',
  'computed',
  'maintenance',
  'monitoring',
] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];

/** Eight consecutive bits starting at `view`: view, lock, unlock, command, create, edit, delete, selfEdit. */
function block(view: number): Record<PermissionAction, number> {
  const out = {} as Record<PermissionAction, number>;
  PERMISSION_ACTIONS.forEach((a, i) => (out[a] = view + i));
  return out;
}

/**
 * Layout of the 128 bits. Most areas own a block of 8 bits whose first bit is the menu bit of SPEC §6.
 * notifications (32) and events (36) are only 4 apart, so they own 4 bits each with the actions that exist for
 * them. anchor and share have no menu bit and take the free blocks 24 and 104; monitoring takes 112 (view) and
 * 113 (act on alarms). Bits 0–7 and 114–127 are reserved.
 * For anchor, lock = enable the anchor and unlock = disable it; for devices, lock/unlock = block/unblock engine.
 */
export const PERMISSION_LAYOUT: Record<PermissionArea, Partial<Record<PermissionAction, number>>> = {
  devices: block(MENU_BITS.devices),
  users: block(MENU_BITS.users),
  anchor: block(24),
  notifications: { view: 32, create: 33, edit: 34, delete: 35 },
  events: { view: 36, delete: 37 },
  geofences: block(MENU_BITS.geofence),
  groups: block(MENU_BITS.groups),
  commands: block(MENU_BITS.commands),
  computed: block(MENU_BITS.computed),
  reports: block(MENU_BITS.reports),
  drivers: block(MENU_BITS.drivers),
  calendars: block(MENU_BITS.calendars),
  maintenance: block(MENU_BITS.maintenance),
  share: block(104),
  // the monitoring desk (issue #32, alarms.ts): opt-in, read by the alarms routes themselves (isMonitoringOperator)
  monitoring: { view: 112, edit: 113 },
};

/** Bit index of an area × action, or undefined when the area has no such action. */
export function permissionIndex(area: PermissionArea, action: PermissionAction): number | undefined {
  return PERMISSION_LAYOUT[area][action];
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

export interface ServerLike {
  attributes: Attributes;
  readonly?: boolean;
  deviceReadonly?: boolean;
  limitCommands?: boolean;
  disableReports?: boolean;
}

export type UserLike = Partial<
  Pick<
    User,
    | 'id'
    | 'administrator'
    | 'readonly'
    | 'deviceReadonly'
    | 'limitCommands'
    | 'disableReports'
    | 'userLimit'
    | 'deviceLimit'
    | 'temporary'
  >
> & { attributes?: Attributes | null };

export interface PermissionContext {
  user: UserLike | null | undefined;
  server: ServerLike | null | undefined;
  /** Plus licence (response header licensemode). */
  isPlus: boolean;
  /** Attribute namespace, default 'rastro'. */
  ns?: string;
}

const nsOf = (ctx: { ns?: string }) => ctx.ns ?? DEFAULT_NS;

export function isAdmin(user: UserLike | null | undefined): boolean {
  return !!user?.administrator;
}

/** Shared-link guest: attribute isShared or a temporary Traccar user. */
export function isShared(user: UserLike | null | undefined): boolean {
  if (!user) return false;
  return !!user.temporary || attrBool(user.attributes?.isShared);
}

/** QR driver: attribute `{ns}.isQrDriverId` set. */
export function isQrDriver(user: UserLike | null | undefined, ns: string = DEFAULT_NS): boolean {
  return !!user && attrPresent(user.attributes?.[nsKey(ns, 'isQrDriverId')]);
}

/**
 * SPEC §6 evaluation order: 1 QR drivers denied; 2 admins allowed; 3 non-plus servers allow all; 4 server
 * `{ns}.enableAdvancedPerms` on and the user has `{ns}.advancedPerms` ⇒ the bit decides (a malformed string
 * grants nothing: fail closed); 5 otherwise non-shared users are allowed. No user ⇒ denied.
 */
export function hasPermission(ctx: PermissionContext, bit: number): boolean {
  const { user, server } = ctx;
  const ns = nsOf(ctx);
  if (!user) return false;
  if (isQrDriver(user, ns)) return false;
  if (isAdmin(user)) return true;
  if (!ctx.isPlus) return true;
  const perms = user.attributes?.[nsKey(ns, 'advancedPerms')];
  const hasString = typeof perms === 'string' && perms.trim() !== '';
  if (attrBool(server?.attributes?.[nsKey(ns, 'enableAdvancedPerms')]) && hasString) {
    return permissionBit(perms, bit);
  }
  return !isShared(user);
}

export function can(ctx: PermissionContext, area: PermissionArea, action: PermissionAction): boolean {
  const bit = permissionIndex(area, action);
  return bit === undefined ? false : hasPermission(ctx, bit);
}

export function canSeeMenu(ctx: PermissionContext, item: MenuItem): boolean {
  return hasPermission(ctx, MENU_BITS[item]);
}

// ---------------------------------------------------------------------------------------------------------------
// Traccar-derived flags (CONTRACT §6 end)

export function isManager(user: UserLike | null | undefined): boolean {
  return !!user && (!!user.administrator || (user.userLimit ?? 0) !== 0);
}

/** User lists load only for admins or when userLimit is -1 or above 0. */
export function canLoadUserList(user: UserLike | null | undefined): boolean {
  if (!user) return false;
  const limit = user.userLimit ?? 0;
  return !!user.administrator || limit === -1 || limit > 0;
}

/** Traccar's restriction flags (CONTRACT §6): each binds a non-administrator when set on the server or on the user. */
export type Restriction = 'readonly' | 'deviceReadonly' | 'limitCommands' | 'disableReports';
type Flag = boolean | number | null | undefined;
/** A user or server as the restriction rules read it (the web's entities and the server's 0/1 rows alike). */
export type RestrictionFlags = { [K in Restriction]?: Flag } & { administrator?: Flag; attributes?: unknown };

/** The one read-only rule: `key` binds a non-administrator when the server or the user has it set. */
export function isRestricted(
  user: RestrictionFlags | null | undefined,
  server: RestrictionFlags | null | undefined,
  key: Restriction,
): boolean {
  return !user?.administrator && (!!server?.[key] || !!user?.[key]);
}

/** readonly UI = !admin && (server.readonly || user.readonly). */
export function isReadonly(
  user: RestrictionFlags | null | undefined,
  server: RestrictionFlags | null | undefined,
): boolean {
  return isRestricted(user, server, 'readonly');
}

/** deviceReadonly UI = readonly || (!admin && (server.deviceReadonly || user.deviceReadonly)). */
export function isDeviceReadonly(
  user: RestrictionFlags | null | undefined,
  server: RestrictionFlags | null | undefined,
): boolean {
  return isReadonly(user, server) || isRestricted(user, server, 'deviceReadonly');
}

export function isLimitCommands(
  user: RestrictionFlags | null | undefined,
  server: RestrictionFlags | null | undefined,
): boolean {
  return isRestricted(user, server, 'limitCommands');
}

export function isDisableReports(
  user: RestrictionFlags | null | undefined,
  server: RestrictionFlags | null | undefined,
): boolean {
  return isRestricted(user, server, 'disableReports');
}

/**
 * Who may write (Traccar's checkEdit, the server's `Write access denied`): nobody read-only; device writes also
 * need deviceReadonly unset, ad-hoc commands limitCommands unset.
 */
export function mayWrite(
  user: RestrictionFlags | null | undefined,
  server: RestrictionFlags | null | undefined,
  kind?: 'device' | 'command',
): boolean {
  if (isReadonly(user, server)) return false;
  if (kind === 'device') return !isRestricted(user, server, 'deviceReadonly');
  if (kind === 'command') return !isRestricted(user, server, 'limitCommands');
  return true;
}

/** Ad-hoc commands: not a guest, may write commands (not readonly, not limitCommands), devices × command allowed. */
export function canSendCommands(ctx: PermissionContext): boolean {
  return (
    !!ctx.user &&
    !isShared(ctx.user) &&
    mayWrite(ctx.user, ctx.server, 'command') &&
    can(ctx, 'devices', 'command')
  );
}

/** Engine block (engineStop): an ad-hoc command, so the same flags as canSendCommands, and devices × lock. */
export function canBlock(ctx: PermissionContext): boolean {
  return (
    !!ctx.user &&
    !isShared(ctx.user) &&
    mayWrite(ctx.user, ctx.server, 'command') &&
    can(ctx, 'devices', 'lock')
  );
}

/** Engine unblock (engineResume): as canBlock with devices × unlock. */
export function canUnlock(ctx: PermissionContext): boolean {
  return (
    !!ctx.user &&
    !isShared(ctx.user) &&
    mayWrite(ctx.user, ctx.server, 'command') &&
    can(ctx, 'devices', 'unlock')
  );
}

/** Anchor on (enable) / off (disable): creates or deletes a geofence, so a read-only account cannot. */
export function canAnchor(ctx: PermissionContext, mode: 'enable' | 'disable' = 'enable'): boolean {
  return (
    !!ctx.user &&
    !isShared(ctx.user) &&
    !isReadonly(ctx.user, ctx.server) &&
    can(ctx, 'anchor', mode === 'enable' ? 'lock' : 'unlock')
  );
}

/** Device create/edit/delete respects deviceReadonly on top of the bit. */
export function canEditDevices(
  ctx: PermissionContext,
  action: 'create' | 'edit' | 'delete' = 'edit',
): boolean {
  return !!ctx.user && !isDeviceReadonly(ctx.user, ctx.server) && can(ctx, 'devices', action);
}

// ---------------------------------------------------------------------------------------------------------------
// Menus (SPEC §2)

export function isBillingEnabled(server: ServerLike | null | undefined, ns: string = DEFAULT_NS): boolean {
  return attrBool(server?.attributes?.[nsKey(ns, 'enableBilling')]);
}

// The menus' entries and links are in the access table (access.ts: userMenuEntries, sideMenuLinks).

/** The shared-links list (GET /{ns}/shares): Plus, not a guest, and the share.view bit. */
export function canManageShares(ctx: PermissionContext): boolean {
  return ctx.isPlus && !!ctx.user && !isShared(ctx.user) && can(ctx, 'share', 'view');
}
