// The access table (issue #28): each of the seven kinds of viewer × each capability, as SPEC §2 and §6 say.
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  SCREENS,
  USER_MENU_ENTRIES,
  allows,
  homeOf,
  sideMenuLinks,
  userMenuEntries,
  viewerRole,
  type Capability,
  type Role,
} from '../src/access.ts';
import { apiCapability, apiDenial } from '../src/apiPermissions.ts';
import {
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  can,
  permissionStringFromBits,
  type PermissionContext,
  type UserLike,
} from '../src/permissions.ts';

// A Plus server with advanced permissions on (billing off); the sub-user's string grants devices view (8),
// notifications view (32), geofences view (40) and reports view (72) only.
const server = { attributes: { 'rastro.enableAdvancedPerms': true } };
const SUB_BITS = [8, 32, 40, 72];
const USERS: Record<Role, UserLike> = {
  administrator: { id: 1, administrator: true, attributes: {} },
  manager: { id: 2, userLimit: 10, attributes: {} },
  reseller: { id: 3, userLimit: 5, attributes: { 'rastro.reseller': true } },
  user: { id: 4, attributes: { 'rastro.advancedPerms': permissionStringFromBits(SUB_BITS) } },
  readonly: { id: 5, readonly: true, attributes: {} },
  qrDriver: { id: 6, attributes: { 'rastro.isQrDriverId': 7 } },
  guest: { id: 7, temporary: true, attributes: { isShared: true } },
};
const ROLES = Object.keys(USERS) as Role[];
const ctx = (role: Role): PermissionContext => ({ user: USERS[role], server, isPlus: true, ns: 'rastro' });

// Columns: administrator, manager, reseller, user (sub-user), readonly, qrDriver, guest.
const EXPECTED: Partial<Record<Capability, string>> = {
  'screen.home': '1111111',
  'screen.qrDriver': '0000010',
  'screen.devices': '1111100',
  'screen.deviceDetail': '1111101',
  'screen.computed': '1110100',
  'screen.autolink': '1110000',
  'screen.notifications': '1111100',
  'screen.history': '1111100',
  'screen.dashboard': '1111100',
  'screen.reports': '1111100',
  'screen.eventsReport': '1110100', // the sub-user has the reports bit, not the events bit
  'screen.geofences': '1111100',
  'screen.users': '1110000',
  'screen.groups': '1110100',
  'screen.commands': '1110100',
  'screen.serverHealth': '1000000',
  'screen.assistant': '1111100',
  'screen.monitoring': '1000000', // opt-in bit 112: none of the others has it
  'menu.account': '1111100',
  'menu.advancedLogs': '1000000',
  'menu.integrations': '0000000',
  'menu.billing': '0000000',
  'menu.invoices': '0000000',
  'menu.theme': '1000000',
  'menu.users': '1110000',
  'menu.computed': '1110100',
  'menu.server': '1000000',
  'menu.notifications': '1111100',
  'menu.events': '1110100',
  'menu.drivers': '1110100',
  'menu.calendars': '1110100',
  'menu.maintenance': '1110100',
  'menu.logout': '1111111',
  'device.create': '1110000',
  'device.edit': '1110000',
  'device.delete': '1110000',
  'device.block': '1110000',
  'device.unlock': '1110000',
  'device.anchor': '1110000',
  'device.anchorOff': '1110000',
  'device.command': '1110000',
  'device.share': '1110000',
  'device.history': '1111100',
  'device.telemetry': '1111100',
  'device.pin': '1111000',
  'geofence.create': '1110000',
  'geofence.edit': '1110000',
  'geofence.delete': '1110000',
  'users.create': '1110000',
  'users.edit': '1110000',
  'users.delete': '1110000',
  'users.loginAs': '1000000',
  'shares.manage': '1110100', // the list (GET /{ns}/shares) is a read; creating is device.share
};

const ALL: Capability[] = [
  ...SCREENS.map((s) => `screen.${s}` as const),
  ...USER_MENU_ENTRIES.map((e) => `menu.${e}` as const),
  ...ACTIONS,
];

describe('access table (issue #28)', () => {
  it('knows each of the seven kinds of viewer', () => {
    for (const role of ROLES) expect(viewerRole(ctx(role))).toBe(role);
    expect(viewerRole({ user: null, server, isPlus: true })).toBeNull();
    // a read-only manager is a manager (it still manages its users, read-only)
    expect(viewerRole({ user: { userLimit: 3, readonly: true }, server, isPlus: true })).toBe('manager');
  });

  it('has a row for every screen, menu entry and action', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ALL].sort());
  });

  for (const capability of ALL) {
    it(`${capability}: ${EXPECTED[capability]}`, () => {
      const got = ROLES.map((r) => (allows(ctx(r), capability) ? '1' : '0')).join('');
      expect(got).toBe(EXPECTED[capability]);
    });
  }

  it('screen.monitoring: a user or read-only user with the opt-in bit 112 opens the desk (issue #32)', () => {
    const operator = (extra: Partial<UserLike>): PermissionContext => ({
      user: { id: 9, attributes: { 'rastro.advancedPerms': permissionStringFromBits([112]) }, ...extra },
      server: { attributes: {} },
      isPlus: true,
      ns: 'rastro',
    });
    expect(allows(operator({}), 'screen.monitoring')).toBe(true);
    expect(allows(operator({ readonly: true }), 'screen.monitoring')).toBe(true);
    expect(allows(operator({ attributes: { isShared: true } }), 'screen.monitoring')).toBe(false);
    expect(sideMenuLinks(operator({}))).toContain('/monitoring');
    expect(sideMenuLinks(ctx('manager'))).not.toContain('/monitoring');
  });

  it('nobody signed in may use nothing', () => {
    for (const c of ALL) expect(allows({ user: null, server, isPlus: true }, c)).toBe(false);
  });

  it('each role has a home it may open: the QR driver its view, the guest its vehicle, everyone else the map', () => {
    for (const role of ROLES) {
      const home = homeOf(ctx(role), [12]);
      const expected = { qrDriver: '/qr-driver', guest: '/devices/12' }[role as string] ?? '/home';
      expect(home).toBe(expected);
      const screen = { qrDriver: 'screen.qrDriver', guest: 'screen.deviceDetail' }[role as string];
      expect(allows(ctx(role), (screen ?? 'screen.home') as Capability)).toBe(true);
    }
    // a guest of a shared group (several vehicles), or before its vehicle is known: the map
    expect(homeOf(ctx('guest'), [12, 13])).toBe('/home');
    expect(homeOf(ctx('guest'))).toBe('/home');
  });

  it('menus are the table: side links and user-menu entries', () => {
    expect(sideMenuLinks(ctx('user'))).toEqual([
      '/dashboard',
      '/devices',
      '/reports',
      '/geofence',
      '/notifications',
    ]);
    expect(sideMenuLinks(ctx('readonly'))).toEqual([
      '/dashboard',
      '/devices',
      '/reports',
      '/geofence',
      '/commands',
      '/groups',
      '/notifications',
    ]);
    expect(sideMenuLinks(ctx('qrDriver'))).toEqual([]);
    expect(sideMenuLinks(ctx('guest'))).toEqual([]);
    expect(userMenuEntries(ctx('user'))).toEqual(['account', 'notifications', 'logout']);
    expect(userMenuEntries(ctx('readonly'))).not.toContain('users');
    expect(userMenuEntries(ctx('guest'))).toEqual(['logout']);
  });

  it('a user with disableReports gets no reports, dashboard or history screen', () => {
    const c: PermissionContext = { user: { disableReports: true }, server, isPlus: true };
    expect(allows(c, 'screen.reports')).toBe(false);
    expect(allows(c, 'screen.dashboard')).toBe(false);
    expect(allows(c, 'screen.history')).toBe(false);
    expect(allows(c, 'screen.devices')).toBe(true);
  });

  it("the server's gate asks the same table: each bit capability is can(area, action), for every role", () => {
    for (const role of ROLES)
      for (const area of PERMISSION_AREAS)
        for (const action of PERMISSION_ACTIONS) {
          const requirement = { area, action };
          expect(allows(ctx(role), apiCapability(requirement))).toBe(can(ctx(role), area, action));
          expect(apiDenial(ctx(role), requirement) === null).toBe(can(ctx(role), area, action));
        }
  });
});
