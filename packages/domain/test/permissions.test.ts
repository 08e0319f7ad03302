import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  MENU_BITS,
  NO_PERMISSIONS,
  PERMISSION_LAYOUT,
  can,
  canAnchor,
  canBlock,
  canLoadUserList,
  canSendCommands,
  canUnlock,
  formatPermissionString,
  groupPermissionString,
  hasPermission,
  isDeviceReadonly,
  isDisableReports,
  isLimitCommands,
  isManager,
  isQrDriver,
  isReadonly,
  isRestricted,
  mayWrite,
  isShared,
  isValidPermissionString,
  parsePermissionString,
  permissionBit,
  permissionStringFromBits,
  setPermissionBit,
  type PermissionContext,
} from '../src/permissions.ts';
import { sideMenuLinks, userMenuEntries } from '../src/access.ts';
import { isSubUserOf, userDeleteDenial, userEditDenial, visibleUsers } from '../src/userRules.ts';

const plusServer = { attributes: { 'rastro.enableAdvancedPerms': true } };
const user = (attrs: Record<string, string | boolean> = {}, extra: object = {}) => ({
  id: 5,
  administrator: false,
  attributes: attrs,
  ...extra,
});
const ctx = (u: PermissionContext['user'], over: Partial<PermissionContext> = {}): PermissionContext => ({
  user: u,
  server: plusServer,
  isPlus: true,
  ...over,
});

describe('permission string', () => {
  it('accepts 32 hex chars, plain or as four groups of 8', () => {
    expect(isValidPermissionString('0123456789abcdefABCDEF0123456789')).toBe(true);
    expect(isValidPermissionString('01234567-89abcdef-01234567-89abcdef')).toBe(true);
    expect(isValidPermissionString('01234567 89abcdef 01234567 89abcdef')).toBe(true);
    expect(isValidPermissionString('0'.repeat(31))).toBe(false);
    expect(isValidPermissionString('0'.repeat(33))).toBe(false);
    expect(isValidPermissionString('g'.repeat(32))).toBe(false);
    expect(isValidPermissionString('0123456-789abcdef-01234567-89abcdef')).toBe(false);
    expect(isValidPermissionString(null)).toBe(false);
  });

  it('expands to 128 bits, MSB first, left to right', () => {
    const bits = parsePermissionString('80000000000000000000000000000001')!;
    expect(bits).toHaveLength(128);
    expect(bits[0]).toBe(true);
    expect(bits[1]).toBe(false);
    expect(bits[127]).toBe(true);
    expect(bits.filter(Boolean)).toHaveLength(2);
    // bit 8 is the MSB of the third hex character
    expect(permissionBit('00800000000000000000000000000000', 8)).toBe(true);
    expect(permissionBit('00400000000000000000000000000000', 8)).toBe(false);
    expect(permissionBit('00400000000000000000000000000000', 9)).toBe(true);
    expect(permissionBit(ALL_PERMISSIONS, 128)).toBe(false);
    expect(permissionBit(ALL_PERMISSIONS, -1)).toBe(false);
  });

  it('round-trips through format and set', () => {
    const s = permissionStringFromBits([8, 16, 127]);
    expect(s).toBe('00808000000000000000000000000001');
    expect(formatPermissionString(parsePermissionString(s)!)).toBe(s);
    expect(setPermissionBit(s, 16, false)).toBe('00800000000000000000000000000001');
    expect(groupPermissionString(s)).toBe('00808000 00000000 00000000 00000001');
    expect(() => setPermissionBit(s, 128, true)).toThrow(RangeError);
  });

  it('round-trips any 128 bits and any valid string (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 128, maxLength: 128 }), (bits) => {
        const s = formatPermissionString(bits);
        expect(isValidPermissionString(s)).toBe(true);
        expect(parsePermissionString(s)).toEqual(bits);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), fc.integer({ min: 0, max: 127 }), (s, i) => {
        expect(formatPermissionString(parsePermissionString(s)!)).toBe(s);
        expect(permissionBit(setPermissionBit(s, i, true), i)).toBe(true);
        expect(permissionBit(setPermissionBit(s, i, false), i)).toBe(false);
        expect(permissionBit(s, i)).toBe(((parseInt(s[i >> 2], 16) >> (3 - (i & 3))) & 1) === 1);
      }),
    );
  });

  it('keeps menu bits as area view bits, without overlaps', () => {
    expect(PERMISSION_LAYOUT.devices.view).toBe(MENU_BITS.devices);
    expect(PERMISSION_LAYOUT.users.view).toBe(16);
    expect(PERMISSION_LAYOUT.notifications.view).toBe(32);
    expect(PERMISSION_LAYOUT.events.view).toBe(36);
    expect(PERMISSION_LAYOUT.geofences.view).toBe(40);
    expect(PERMISSION_LAYOUT.groups.view).toBe(48);
    expect(PERMISSION_LAYOUT.commands.view).toBe(56);
    expect(PERMISSION_LAYOUT.computed.view).toBe(64);
    expect(PERMISSION_LAYOUT.reports.view).toBe(72);
    expect(PERMISSION_LAYOUT.drivers.view).toBe(80);
    expect(PERMISSION_LAYOUT.calendars.view).toBe(88);
    expect(PERMISSION_LAYOUT.maintenance.view).toBe(96);
    const all = Object.values(PERMISSION_LAYOUT).flatMap((a) => Object.values(a));
    expect(new Set(all).size).toBe(all.length);
    expect(Math.max(...all)).toBeLessThan(128);
    expect(PERMISSION_LAYOUT.devices.lock).toBe(9);
    expect(PERMISSION_LAYOUT.devices.selfEdit).toBe(15);
  });
});

describe('advanced permission evaluation order', () => {
  const only8 = permissionStringFromBits([8]);

  it('1. QR drivers are denied even when admin', () => {
    const qr = user({ 'rastro.isQrDriverId': '12' }, { administrator: true });
    expect(isQrDriver(qr)).toBe(true);
    expect(hasPermission(ctx(qr), 8)).toBe(false);
    expect(hasPermission(ctx(qr, { isPlus: false }), 8)).toBe(false);
  });

  it('2. administrators are allowed even with a zero string', () => {
    expect(
      hasPermission(ctx(user({ 'rastro.advancedPerms': NO_PERMISSIONS }, { administrator: true })), 8),
    ).toBe(true);
  });

  it('3. non-plus servers allow everyone, shared users included', () => {
    const c = ctx(user({ 'rastro.advancedPerms': NO_PERMISSIONS, isShared: true }), { isPlus: false });
    expect(hasPermission(c, 8)).toBe(true);
  });

  it('4. enabled + string: the bit decides', () => {
    const u = user({ 'rastro.advancedPerms': only8 });
    expect(hasPermission(ctx(u), 8)).toBe(true);
    expect(hasPermission(ctx(u), 16)).toBe(false);
    expect(hasPermission(ctx(user({ 'rastro.advancedPerms': 'bad' })), 8)).toBe(false);
  });

  it('5. otherwise non-shared users allowed, shared denied', () => {
    const off = { attributes: { 'rastro.enableAdvancedPerms': 'false' } };
    expect(hasPermission(ctx(user({ 'rastro.advancedPerms': NO_PERMISSIONS }), { server: off }), 16)).toBe(
      true,
    );
    expect(hasPermission(ctx(user({})), 16)).toBe(true);
    expect(hasPermission(ctx(user({ isShared: true })), 16)).toBe(false);
    expect(hasPermission(ctx(user({}, { temporary: true })), 16)).toBe(false);
    expect(hasPermission(ctx(null), 16)).toBe(false);
  });

  it('follows the configured namespace', () => {
    const u = user({ 'tarkan.advancedPerms': NO_PERMISSIONS });
    const server = { attributes: { 'tarkan.enableAdvancedPerms': true } };
    expect(hasPermission({ user: u, server, isPlus: true, ns: 'tarkan' }, 8)).toBe(false);
    expect(hasPermission({ user: u, server, isPlus: true }, 8)).toBe(true);
  });
});

describe('flags and roles', () => {
  it('derives Traccar flags', () => {
    expect(isManager({ userLimit: 0 })).toBe(false);
    expect(isManager({ userLimit: -1 })).toBe(true);
    expect(isManager({ userLimit: 3 })).toBe(true);
    expect(isManager({ administrator: true, userLimit: 0 })).toBe(true);
    const server = { attributes: {}, readonly: true };
    expect(isReadonly({}, server)).toBe(true);
    expect(isReadonly({ administrator: true }, server)).toBe(false);
    expect(isReadonly({ readonly: true }, { attributes: {} })).toBe(true);
    expect(isDeviceReadonly({ deviceReadonly: true }, { attributes: {} })).toBe(true);
    expect(isDeviceReadonly({}, server)).toBe(true);
    expect(isDeviceReadonly({}, { attributes: {}, deviceReadonly: true })).toBe(true);
    expect(isDeviceReadonly({}, { attributes: {} })).toBe(false);
    expect(isLimitCommands({ limitCommands: true }, { attributes: {} })).toBe(true);
    expect(isLimitCommands({ administrator: true, limitCommands: true }, { attributes: {} })).toBe(false);
    expect(isDisableReports({}, { attributes: {}, disableReports: true })).toBe(true);
  });

  it('engine block, unblock and ad-hoc commands are closed to read-only accounts (the server refuses them)', () => {
    const readonlyUser = ctx(user({}, { readonly: true }), { isPlus: false });
    const onReadonlyServer = ctx(user(), { isPlus: false, server: { attributes: {}, readonly: true } });
    for (const c of [readonlyUser, onReadonlyServer]) {
      expect(canBlock(c)).toBe(false);
      expect(canUnlock(c)).toBe(false);
      expect(canSendCommands(c)).toBe(false);
    }
    expect(canBlock(ctx(user(), { isPlus: false }))).toBe(true);
    expect(canBlock(ctx({ ...user({}, { readonly: true }), administrator: true }, { isPlus: false }))).toBe(
      true,
    );
  });

  it('mayWrite: readonly stops every write; deviceReadonly device writes; limitCommands command writes', () => {
    const none = { attributes: {} };
    expect(mayWrite({}, none)).toBe(true);
    expect(mayWrite({ readonly: true }, none, 'device')).toBe(false);
    expect(mayWrite({}, { ...none, readonly: 1 })).toBe(false);
    expect(mayWrite({ deviceReadonly: true }, none)).toBe(true);
    expect(mayWrite({ deviceReadonly: true }, none, 'device')).toBe(false);
    expect(mayWrite({ deviceReadonly: true }, none, 'command')).toBe(true);
    expect(mayWrite({}, { ...none, limitCommands: 1 }, 'command')).toBe(false);
    expect(mayWrite({ administrator: 1, readonly: 1 }, { ...none, readonly: 1 }, 'device')).toBe(true);
    expect(isRestricted({ disableReports: 0 }, { disableReports: 1 }, 'disableReports')).toBe(true);
    expect(isRestricted(null, null, 'readonly')).toBe(false);
  });

  it('isShared: attribute or temporary', () => {
    expect(isShared({ attributes: { isShared: true } })).toBe(true);
    expect(isShared({ temporary: true, attributes: {} })).toBe(true);
    expect(isShared({ attributes: {} })).toBe(false);
  });

  it('command, block, unlock and anchor abilities', () => {
    const bits = (...a: number[]) => user({ 'rastro.advancedPerms': permissionStringFromBits(a) });
    const d = PERMISSION_LAYOUT.devices;
    expect(canBlock(ctx(bits(d.lock!)))).toBe(true);
    expect(canUnlock(ctx(bits(d.lock!)))).toBe(false);
    expect(canUnlock(ctx(bits(d.unlock!)))).toBe(true);
    expect(canSendCommands(ctx(bits(d.command!)))).toBe(true);
    expect(canSendCommands(ctx(user({}, { limitCommands: true })))).toBe(false);
    expect(canBlock(ctx(user({ isShared: true }), { isPlus: false }))).toBe(false);
    expect(canAnchor(ctx(bits(PERMISSION_LAYOUT.anchor.lock!)))).toBe(true);
    expect(canAnchor(ctx(bits(PERMISSION_LAYOUT.anchor.lock!)), 'disable')).toBe(false);
    expect(canAnchor(ctx(user({}, { readonly: true })))).toBe(false);
    expect(can(ctx(bits(33)), 'notifications', 'create')).toBe(true);
    expect(can(ctx(bits(33)), 'events', 'create')).toBe(false);
  });
});

describe('menus', () => {
  it('user menu for a plus admin with billing shows everything', () => {
    const server = { attributes: { 'rastro.enableBilling': true } };
    expect(userMenuEntries(ctx(user({}, { administrator: true }), { server }))).toEqual([
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
    ]);
  });

  it('user menu follows bits for ordinary users', () => {
    const u = user({ 'rastro.advancedPerms': permissionStringFromBits([16, 36, 96]) });
    // Users opens the users screen: only for whom the list loads (issue #28), a manager here
    expect(userMenuEntries(ctx(u))).toEqual(['account', 'events', 'maintenance', 'logout']);
    const manager = user(
      { 'rastro.advancedPerms': permissionStringFromBits([16, 36, 96]) },
      { userLimit: 5 },
    );
    expect(userMenuEntries(ctx(manager))).toEqual(['account', 'users', 'events', 'maintenance', 'logout']);
    const server = { attributes: { 'rastro.enableBilling': 'true', 'rastro.enableAdvancedPerms': true } };
    expect(userMenuEntries(ctx(u, { server }))).toContain('invoices');
    expect(userMenuEntries(ctx(u, { server }))).not.toContain('billing');
  });

  it('shared users only get logout; non-plus admin has no plus entries', () => {
    expect(userMenuEntries(ctx(user({ isShared: true })))).toEqual(['logout']);
    const entries = userMenuEntries(ctx(user({}, { administrator: true }), { isPlus: false }));
    expect(entries).not.toContain('theme');
    expect(entries).not.toContain('advancedLogs');
    expect(entries).toContain('server');
  });

  it('side menu links', () => {
    const u = user({ 'rastro.advancedPerms': permissionStringFromBits([8, 72]) });
    // /notifications lists the rules: it needs their bit (issue #28: no link to a screen that cannot load)
    expect(sideMenuLinks(ctx(u))).toEqual(['/dashboard', '/devices', '/reports']);
    const rules = user({ 'rastro.advancedPerms': permissionStringFromBits([8, 32, 72]) });
    expect(sideMenuLinks(ctx(rules))).toEqual(['/dashboard', '/devices', '/reports', '/notifications']);
    expect(sideMenuLinks(ctx(user({}, { disableReports: true })))).not.toContain('/dashboard');
    expect(sideMenuLinks(ctx(user({}, { administrator: true })))).toEqual([
      '/dashboard',
      '/devices',
      '/reports',
      '/geofence',
      '/commands',
      '/groups',
      '/server-health',
      '/notifications',
      '/monitoring',
    ]);
    expect(sideMenuLinks(ctx(user({ isShared: true })))).toEqual([]);
  });
});

describe('user lists and user actions', () => {
  it('user list loads for admins and userLimit -1 or > 0', () => {
    expect(canLoadUserList({ userLimit: -1 })).toBe(true);
    expect(canLoadUserList({ userLimit: 1 })).toBe(true);
    expect(canLoadUserList({ userLimit: 0 })).toBe(false);
    expect(canLoadUserList({ userLimit: -2 })).toBe(false);
    expect(canLoadUserList({ userLimit: 0, administrator: true })).toBe(true);
  });

  it('finds sub-users by field or attribute and hides shared users', () => {
    expect(isSubUserOf({ managerId: 3, attributes: {} }, 3)).toBe(true);
    expect(isSubUserOf({ attributes: { ownerId: '3' } }, 3)).toBe(true);
    expect(isSubUserOf({ attributes: { adminId: 4 } }, 3)).toBe(false);
    expect(
      visibleUsers([
        { id: 1, attributes: {} },
        { id: 2, attributes: { isShared: true } },
      ]),
    ).toHaveLength(1);
  });

  it('self-deletion and superior admins', () => {
    const boss = { id: 1, administrator: true, attributes: {} };
    const admin = { id: 2, administrator: true, attributes: {}, managerId: 1 };
    const plain = { id: 3, attributes: {} };
    expect(userDeleteDenial(admin, admin)).toBe('validation.cannotDeleteSelf');
    expect(userDeleteDenial(admin, boss)).toBe('validation.cannotEditSuperiorAdmin');
    expect(userEditDenial(admin, boss)).toBe('validation.cannotEditSuperiorAdmin');
    expect(userEditDenial(plain, boss)).toBe('validation.cannotEditSuperiorAdmin');
    expect(userDeleteDenial(boss, admin)).toBeNull();
    expect(userEditDenial(admin, admin)).toBeNull();
    expect(userDeleteDenial(admin, plain)).toBeNull();
  });
});
