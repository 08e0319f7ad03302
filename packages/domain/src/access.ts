// The one access table (issue #28): for a viewer (the signed-in user with the server's settings and licence, a
// shared-link guest, a QR driver, or nobody) whether each capability is allowed. A capability is a screen (each
// route of SPEC §2), an entry of the user menu, a device or list action, or one advanced-permission bit the server's
// API gate needs (apiPermissions.ts maps each endpoint to such a bit). The web router's guard, the side and user
// menus, the action buttons (useCan) and the server's gate all ask `allows`; the rules of each capability are written
// once, here or in the function of permissions.ts it names.
import { DEFAULT_NS } from './attributes.ts';
import {
  MENU_BITS,
  can,
  canAnchor,
  canBlock,
  canLoadUserList,
  canEditDevices,
  canManageShares,
  canSendCommands,
  canUnlock,
  hasPermission,
  isAdmin,
  isBillingEnabled,
  isDisableReports,
  isManager,
  isQrDriver,
  isReadonly,
  isShared,
  type PermissionAction,
  type PermissionArea,
  type PermissionContext,
} from './permissions.ts';
import { isReseller, resellerDomainOf } from './reseller.ts';
import { isMonitoringOperator } from './monitoringAccess.ts';

/** The seven kinds of viewer of SPEC §6 (null: nobody signed in). */
export type Role = 'administrator' | 'manager' | 'reseller' | 'user' | 'readonly' | 'qrDriver' | 'guest';

/** Screens: one per signed-in route of SPEC §2 (routeMeta names the screen of each route). */
export const SCREENS = [
  'home',
  'qrDriver',
  'devices',
  'deviceDetail',
  'computed',
  'autolink',
  'notifications',
  'history',
  'dashboard',
  'reports',
  'eventsReport',
  'geofences',
  'users',
  'groups',
  'commands',
  'serverHealth',
  'assistant',
  'monitoring',
] as const;
export type Screen = (typeof SCREENS)[number];

export const USER_MENU_ENTRIES = [
  'account',
  'advancedLogs',
  'integrations',
  'billing',
  'invoices',
  'theme',
  'users',
  'computed',
  'server',
  'notifications',
  'events',
  'drivers',
  'calendars',
  'maintenance',
  'logout',
] as const;
export type UserMenuEntry = (typeof USER_MENU_ENTRIES)[number];

/** Buttons and forms: what a screen or dialog offers. */
export const ACTIONS = [
  'device.create',
  'device.edit',
  'device.delete',
  'device.block',
  'device.unlock',
  'device.anchor',
  'device.anchorOff',
  'device.command',
  'device.share',
  'device.history',
  'device.telemetry',
  'device.pin',
  'geofence.create',
  'geofence.edit',
  'geofence.delete',
  'users.create',
  'users.edit',
  'users.delete',
  'users.loginAs',
  'shares.manage',
] as const;
export type Action = (typeof ACTIONS)[number];

export type Capability =
  `screen.${Screen}` | `menu.${UserMenuEntry}` | Action | `bit.${PermissionArea}.${PermissionAction}`;

const nsOf = (ctx: PermissionContext) => ctx.ns ?? DEFAULT_NS;

/** Which of the seven kinds the viewer is; null when nobody is signed in. */
export function viewerRole(ctx: PermissionContext): Role | null {
  const { user } = ctx;
  if (!user) return null;
  if (isQrDriver(user, nsOf(ctx))) return 'qrDriver';
  if (isShared(user)) return 'guest';
  if (isAdmin(user)) return 'administrator';
  if (isReseller(user, nsOf(ctx))) return 'reseller';
  if (isManager(user)) return 'manager';
  if (isReadonly(user, ctx.server)) return 'readonly';
  return 'user';
}

/** A signed-in account of the app itself: neither a QR driver (its own view) nor a shared-link guest (the map). */
function member(ctx: PermissionContext): boolean {
  const role = viewerRole(ctx);
  return role !== null && role !== 'qrDriver' && role !== 'guest';
}

const bit = (ctx: PermissionContext, item: keyof typeof MENU_BITS) =>
  member(ctx) && hasPermission(ctx, MENU_BITS[item]);
const reports = (ctx: PermissionContext) => bit(ctx, 'reports') && !isDisableReports(ctx.user, ctx.server);
/** The users list loads (admins and managers) and the users bit allows it. */
const usersScreen = (ctx: PermissionContext) => bit(ctx, 'users') && canLoadUserList(ctx.user);
const usersWrite = (ctx: PermissionContext, action: PermissionAction) =>
  usersScreen(ctx) && !isReadonly(ctx.user, ctx.server) && can(ctx, 'users', action);
const geofenceWrite = (ctx: PermissionContext, action: PermissionAction) =>
  bit(ctx, 'geofence') && !isReadonly(ctx.user, ctx.server) && can(ctx, 'geofences', action);

type Rule = (ctx: PermissionContext) => boolean;

const SCREEN_RULES: Record<Screen, Rule> = {
  home: (ctx) => !!ctx.user,
  qrDriver: (ctx) => viewerRole(ctx) === 'qrDriver',
  devices: (ctx) => bit(ctx, 'devices'),
  // the share guest's home is its shared vehicle's detail (homeOf)
  deviceDetail: (ctx) => bit(ctx, 'devices') || viewerRole(ctx) === 'guest',
  computed: (ctx) => bit(ctx, 'computed'),
  // the autolink form creates a device: not offered to whom the server would refuse it
  autolink: (ctx) => member(ctx) && canEditDevices(ctx, 'create'),
  notifications: (ctx) => bit(ctx, 'notifications'),
  history: reports,
  dashboard: reports,
  reports,
  // the events report lists events: the events bit too (SPEC §6), as the server's gate asks for /api/reports/events
  eventsReport: (ctx) => reports(ctx) && bit(ctx, 'events'),
  geofences: (ctx) => bit(ctx, 'geofence'),
  users: usersScreen,
  groups: (ctx) => bit(ctx, 'groups'),
  commands: (ctx) => bit(ctx, 'commands'),
  serverHealth: (ctx) => member(ctx) && isAdmin(ctx.user),
  assistant: member,
  // the monitoring desk (issue #32): operators only (opt-in bit 112, monitoringAccess.ts)
  monitoring: (ctx) => member(ctx) && isMonitoringOperator(ctx),
};

/** SPEC §2 user-menu table; Users and Computed attributes open their screens, so they ask the screen's rule. */
const MENU_RULES: Record<UserMenuEntry, Rule> = {
  account: member,
  advancedLogs: (ctx) => member(ctx) && isAdmin(ctx.user) && ctx.isPlus,
  integrations: (ctx) =>
    member(ctx) && isAdmin(ctx.user) && ctx.isPlus && isBillingEnabled(ctx.server, nsOf(ctx)),
  billing: (ctx) => member(ctx) && isAdmin(ctx.user) && ctx.isPlus && isBillingEnabled(ctx.server, nsOf(ctx)),
  invoices: (ctx) => member(ctx) && isBillingEnabled(ctx.server, nsOf(ctx)),
  // a reseller with a domain edits its own login-page branding (reseller.ts)
  theme: (ctx) =>
    member(ctx) && ctx.isPlus && (isAdmin(ctx.user) || resellerDomainOf(ctx.user, nsOf(ctx)) !== ''),
  users: SCREEN_RULES.users,
  computed: SCREEN_RULES.computed,
  server: (ctx) => member(ctx) && isAdmin(ctx.user),
  notifications: (ctx) => bit(ctx, 'notifications'),
  events: (ctx) => bit(ctx, 'events'),
  drivers: (ctx) => bit(ctx, 'drivers'),
  calendars: (ctx) => bit(ctx, 'calendars'),
  maintenance: (ctx) => bit(ctx, 'maintenance'),
  logout: (ctx) => !!ctx.user,
};

const ACTION_RULES: Record<Action, Rule> = {
  'device.create': (ctx) => member(ctx) && canEditDevices(ctx, 'create'),
  'device.edit': (ctx) => member(ctx) && canEditDevices(ctx, 'edit'),
  'device.delete': (ctx) => member(ctx) && canEditDevices(ctx, 'delete'),
  'device.block': canBlock,
  'device.unlock': canUnlock,
  'device.anchor': (ctx) => canAnchor(ctx, 'enable'),
  'device.anchorOff': (ctx) => canAnchor(ctx, 'disable'),
  'device.command': canSendCommands,
  'device.share': (ctx) =>
    !isReadonly(ctx.user, ctx.server) && !isShared(ctx.user) && can(ctx, 'share', 'create'),
  'device.history': reports,
  // the chart reads a period's positions (GET /api/positions?from=&to=), which the server refuses to disableReports
  // (a share guest's too) whatever the reports bit
  'device.telemetry': (ctx) => member(ctx) && !isDisableReports(ctx.user, ctx.server),
  // pinned devices are kept in the user's own attributes (PUT /api/users/{id}): refused to read-only accounts
  'device.pin': (ctx) => member(ctx) && !isReadonly(ctx.user, ctx.server),
  'geofence.create': (ctx) => geofenceWrite(ctx, 'create'),
  'geofence.edit': (ctx) => geofenceWrite(ctx, 'edit'),
  'geofence.delete': (ctx) => geofenceWrite(ctx, 'delete'),
  'users.create': (ctx) => usersWrite(ctx, 'create'),
  'users.edit': (ctx) => usersWrite(ctx, 'edit'),
  'users.delete': (ctx) => usersWrite(ctx, 'delete'),
  // SPEC §6: an administrator logs in as another user (the target's rule is impersonationDenial)
  'users.loginAs': (ctx) => member(ctx) && isAdmin(ctx.user),
  'shares.manage': canManageShares,
};

/** Whether the viewer may use `capability` (screen, menu entry, action, or one advanced-permission bit). */
export function allows(ctx: PermissionContext, capability: Capability): boolean {
  const dot = capability.indexOf('.');
  const kind = capability.slice(0, dot);
  const name = capability.slice(dot + 1);
  if (kind === 'screen') return SCREEN_RULES[name as Screen](ctx);
  if (kind === 'menu') return MENU_RULES[name as UserMenuEntry](ctx);
  if (kind === 'bit') {
    const [area, action] = name.split('.') as [PermissionArea, PermissionAction];
    return can(ctx, area, action);
  }
  return ACTION_RULES[capability as Action](ctx);
}

/**
 * Where a viewer lands, and where a route it may not use sends it: the QR driver's view; the share guest's one
 * shared vehicle (its detail, the map centred on it; a shared group opens the map with all of them); or the map.
 * `deviceIds`: the devices the viewer sees (only the guest's home needs them).
 */
export function homeOf(ctx: PermissionContext, deviceIds: readonly number[] = []): string {
  const role = viewerRole(ctx);
  if (role === 'qrDriver') return '/qr-driver';
  if (role === 'guest' && deviceIds.length === 1) return `/devices/${deviceIds[0]}`;
  return '/home';
}

/** The user menu's entries, in display order (SPEC §2 table). */
export function userMenuEntries(ctx: PermissionContext): UserMenuEntry[] {
  return USER_MENU_ENTRIES.filter((e) => allows(ctx, `menu.${e}`));
}

/** The side menu's links and the screen each opens (SPEC §2 shell layout). */
export const SIDE_MENU_SCREENS = {
  '/dashboard': 'dashboard',
  '/devices': 'devices',
  '/reports': 'reports',
  '/geofence': 'geofences',
  '/commands': 'commands',
  '/groups': 'groups',
  '/server-health': 'serverHealth',
  '/notifications': 'notifications',
  '/monitoring': 'monitoring',
} as const satisfies Record<string, Screen>;
export type SideMenuLink = keyof typeof SIDE_MENU_SCREENS;

/** Side-menu links the viewer may open, in display order. */
export function sideMenuLinks(ctx: PermissionContext): SideMenuLink[] {
  return (Object.keys(SIDE_MENU_SCREENS) as SideMenuLink[]).filter((l) =>
    allows(ctx, `screen.${SIDE_MENU_SCREENS[l]}`),
  );
}
