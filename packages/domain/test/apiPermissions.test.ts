import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  BITS_WITHOUT_API,
  NO_PERMISSIONS,
  PERMISSION_LAYOUT,
  apiDenial,
  apiPermission,
  apiPermissionLookups,
  buildAnchorGeofence,
  permissionStringFromBits,
  type ApiFacts,
  type PermissionAction,
  type PermissionArea,
  type PermissionContext,
} from '../src/index.ts';

type Call = [method: string, path: string, body?: unknown, facts?: ApiFacts];
const NS = 'rastro';
const anchor = { ...buildAnchorGeofence({ id: 3, name: 'Truck' }, { latitude: 1, longitude: 2 }), id: 0 };

/** One or more calls per bit, as SPEC §6 × docs/permissions.md decide. */
const CALLS: Record<string, Call[]> = {
  'devices.view': [
    ['GET', '/api/devices/4'],
    ['GET', '/rastro/devices/4/photos'],
    ['GET', '/rastro/devices/4/photos/a.png'],
    ['GET', '/rastro/devices/4/logs?from=x'],
  ],
  'devices.lock': [
    ['POST', '/api/commands/send', { deviceId: 4, type: 'engineStop' }],
    // the type as the device gets it (issue #27): padded, tabbed, upper-case
    ['POST', '/api/commands/send', { deviceId: 4, type: ' engineStop ' }],
    ['POST', '/api/commands/send', { deviceId: 4, type: 'engineStop\t' }],
    ['POST', '/api/commands/send', { deviceId: 4, type: 'ENGINESTOP' }],
    [
      'POST',
      '/api/commands/send',
      { id: 9, deviceId: 4, type: 'custom' },
      { savedCommandType: 'engineStop' },
    ],
  ],
  'devices.unlock': [
    ['POST', '/api/commands/send', { deviceId: 4, type: 'engineResume' }],
    ['POST', '/api/commands/send', { deviceId: 4, type: '\tEngineResume\u200b' }],
  ],
  'devices.command': [
    ['POST', '/api/commands/send', { deviceId: 4, type: 'positionSingle' }],
    ['POST', '/api/commands/send', { id: 9, deviceId: 4 }, { savedCommandType: 'custom' }],
    ['GET', '/api/commands/send?deviceId=4'],
  ],
  'devices.create': [['POST', '/api/devices', { name: 'x' }]],
  'devices.edit': [
    ['PUT', '/api/devices/4', { id: 4 }],
    ['PUT', '/api/devices/4/accumulators', { deviceId: 4 }],
    ['POST', '/api/devices/4/image'],
    ['POST', '/rastro/devices/4/photos'],
    ['DELETE', '/rastro/devices/4/photos/a.png'],
  ],
  'devices.delete': [
    ['DELETE', '/api/devices/4'],
    ['DELETE', '/api/positions?deviceId=4'],
  ],
  'users.view': [
    ['GET', '/api/users'],
    ['GET', '/api/users/8', undefined, { userId: 7 }],
    ['GET', '/rastro/users/8/logs'],
  ],
  'users.lock': [['POST', '/rastro/users/8/suspend']],
  'users.unlock': [['POST', '/rastro/users/8/reactivate']],
  'users.command': [['POST', '/api/notifications/send/mail?userId=8']],
  'users.create': [['POST', '/api/users', { name: 'x' }]],
  'users.edit': [['PUT', '/api/users/8', { id: 8 }, { userId: 7 }]],
  'users.selfEdit': [['PUT', '/api/users/7', { id: 7 }, { userId: 7 }]],
  'users.delete': [['DELETE', '/api/users/8']],
  'anchor.lock': [
    ['POST', '/api/geofences', anchor],
    // an edit that makes a plain geofence an anchor (issue #27)
    ['PUT', '/api/geofences/5', anchor, { geofenceIsAnchor: false }],
  ],
  'anchor.unlock': [
    ['DELETE', '/api/geofences/5', undefined, { geofenceIsAnchor: true }],
    // an edit that removes the anchor flag from an anchor
    ['PUT', '/api/geofences/5', { id: 5, name: 'x', attributes: {} }, { geofenceIsAnchor: true }],
  ],
  'notifications.view': [['GET', '/api/notifications?deviceId=4']],
  'notifications.create': [['POST', '/api/notifications', {}]],
  'notifications.edit': [
    ['PUT', '/api/notifications/2', {}],
    ['POST', '/api/notifications/test'],
  ],
  'notifications.delete': [['DELETE', '/api/notifications/2']],
  'events.view': [
    ['GET', '/api/events/12'],
    ['GET', '/api/reports/events?deviceId=4'],
  ],
  'geofences.view': [['GET', '/api/geofences']],
  'geofences.create': [['POST', '/api/geofences', { name: 'x', area: 'CIRCLE (1 2, 3)' }]],
  'geofences.edit': [
    ['PUT', '/api/geofences/5', anchor, { geofenceIsAnchor: true }],
    ['PUT', '/api/geofences/5', { id: 5, name: 'x' }, { geofenceIsAnchor: false }],
  ],
  'geofences.delete': [['DELETE', '/api/geofences/5', undefined, { geofenceIsAnchor: false }]],
  'commands.view': [['GET', '/api/commands']],
  'commands.create': [['POST', '/api/commands', { type: 'engineStop' }]],
  'commands.edit': [['PUT', '/api/commands/3', {}]],
  'commands.delete': [['DELETE', '/api/commands/3']],
  'computed.view': [['GET', '/api/attributes/computed']],
  'computed.create': [['POST', '/api/attributes/computed', {}]],
  'computed.edit': [
    ['PUT', '/api/attributes/computed/6', {}],
    ['POST', '/api/attributes/computed/test?deviceId=4', {}],
  ],
  'computed.delete': [['DELETE', '/api/attributes/computed/6']],
  'reports.view': [
    ['GET', '/api/reports/route?deviceId=4'],
    ['GET', '/api/reports/summary'],
    ['GET', '/api/reports'],
    ['GET', '/api/positions/kml?deviceId=4'],
  ],
  'reports.create': [['POST', '/api/reports', {}]],
  'reports.edit': [['PUT', '/api/reports/2', {}]],
  'reports.delete': [['DELETE', '/api/reports/2']],
  'share.create': [
    ['POST', '/api/share/device'],
    ['POST', '/api/share/group'],
    ['POST', '/rastro/shares'],
  ],
  'share.view': [['GET', '/rastro/shares']],
  'share.edit': [['PUT', '/rastro/shares/7']],
  'share.delete': [['DELETE', '/rastro/shares/7']],
};
for (const area of ['groups', 'drivers', 'calendars', 'maintenance'] as const) {
  CALLS[`${area}.view`] = [
    ['GET', `/api/${area}`],
    ['GET', `/api/${area}/1`],
  ];
  CALLS[`${area}.create`] = [['POST', `/api/${area}`, {}]];
  CALLS[`${area}.edit`] = [['PUT', `/api/${area}/1`, {}]];
  CALLS[`${area}.delete`] = [['DELETE', `/api/${area}/1`]];
}
CALLS['devices.create'].push(['GET', '/rastro/autolink'], ['POST', '/rastro/autolink']);
// a driver's photo is an edit of the driver
CALLS['drivers.edit'].push(['POST', '/rastro/drivers/3/image'], ['DELETE', '/rastro/drivers/3/image']);

describe('apiPermission', () => {
  for (const [bit, calls] of Object.entries(CALLS)) {
    for (const [method, path, body, facts] of calls) {
      it(`${method} ${path} needs ${bit}`, () => {
        const r = apiPermission(method, path, NS, body, undefined, facts);
        expect(r && `${r.area}.${r.action}`).toBe(bit);
      });
    }
  }

  it('every bit of PERMISSION_LAYOUT is needed by a call, or is listed as having no API (never both)', () => {
    const withoutApi = new Set(BITS_WITHOUT_API.map((r) => `${r.area}.${r.action}`));
    for (const area of Object.keys(PERMISSION_LAYOUT) as PermissionArea[]) {
      for (const action of Object.keys(PERMISSION_LAYOUT[area]) as PermissionAction[]) {
        const bit = `${area}.${action}`;
        expect(!!CALLS[bit] !== withoutApi.has(bit), bit).toBe(true);
      }
    }
    // and BITS_WITHOUT_API names only real bits
    for (const r of BITS_WITHOUT_API)
      expect(PERMISSION_LAYOUT[r.area][r.action], `${r.area}.${r.action}`).toBeDefined();
  });

  it.each([
    ['GET', '/api/devices'],
    ['GET', '/api/devices?all=true'],
    ['GET', '/api/positions?deviceId=4'],
    ['GET', '/api/server'],
    ['PUT', '/api/server'],
    ['POST', '/api/session'],
    ['DELETE', '/api/session'],
    ['GET', '/api/session'],
    ['POST', '/api/permissions'],
    ['DELETE', '/api/permissions/bulk'],
    ['GET', '/api/commands/types?deviceId=4'],
    ['GET', '/api/notifications/types'],
    ['GET', '/api/notifications/notificators'],
    ['POST', '/api/users/totp'],
    ['GET', '/api/orders'],
    ['GET', '/api/media/rastro-0001/device.png'],
    ['GET', '/rastro/assets/images/4.png'],
    ['GET', '/rastro/server/logs'],
    ['GET', '/rastro/invoices'],
    ['GET', '/api'],
    ['GET', '/index.html'],
    ['PATCH', '/api/devices/4'],
    ['POST', '/api/devices/4'],
    ['PUT', '/api/devices'],
    ['GET', '/api/devices/abc'],
    ['GET', '/api/devices/4/extra/more'],
  ])('%s %s needs no bit', (method, path) => {
    expect(apiPermission(method, path, NS)).toBeNull();
  });

  it('own user: reading is free, editing is users.selfEdit; another user is users.view / users.edit', () => {
    expect(apiPermission('GET', '/api/users/7', NS, undefined, undefined, { userId: 7 })).toBeNull();
    expect(apiPermission('PUT', '/api/users/7', NS, {}, undefined, { userId: 7 })).toEqual({
      area: 'users',
      action: 'selfEdit',
    });
    // without the caller's id the stricter bit applies
    expect(apiPermission('PUT', '/api/users/7', NS, {})).toEqual({ area: 'users', action: 'edit' });
  });

  it('a saved command whose type is unknown falls back to the body type; HEAD needs what GET needs', () => {
    expect(apiPermission('POST', '/api/commands/send', NS, { id: 9, type: 'engineResume' })).toEqual({
      area: 'devices',
      action: 'unlock',
    });
    expect(apiPermission('HEAD', '/api/geofences/3', NS)).toEqual({ area: 'geofences', action: 'view' });
  });

  it('percent-encoded paths are judged as the router decodes them', () => {
    expect(apiPermission('DELETE', '/api/device%73/4', NS)).toEqual({ area: 'devices', action: 'delete' });
    expect(apiPermission('PUT', '/api/%64evices/4?x=%zz', NS)).toEqual({ area: 'devices', action: 'edit' });
    expect(apiPermission('GET', '/api/devices/%zz', NS)).toBeNull();
  });

  it('the extension namespace comes from ns', () => {
    expect(apiPermission('POST', '/fleet/users/8/suspend', 'fleet')).toEqual({
      area: 'users',
      action: 'lock',
    });
    expect(apiPermission('POST', '/rastro/users/8/suspend', 'fleet')).toBeNull();
  });
});

describe('apiPermissionLookups', () => {
  it('asks for the saved command of a send with an id and the geofence of a delete or an edit', () => {
    expect(apiPermissionLookups('POST', '/api/commands/send', { id: 9 })).toEqual({ savedCommandId: 9 });
    expect(apiPermissionLookups('POST', '/api/commands/send', { id: 0, type: 'x' })).toEqual({});
    expect(apiPermissionLookups('DELETE', '/api/geofences/5')).toEqual({ geofenceId: 5 });
    expect(apiPermissionLookups('PUT', '/api/geofences/5', {})).toEqual({ geofenceId: 5 });
    expect(apiPermissionLookups('GET', '/api/devices')).toEqual({});
  });
});

describe('apiDenial (SPEC §6 order)', () => {
  const server = { attributes: { 'rastro.enableAdvancedPerms': true } };
  const ctx = (
    user: PermissionContext['user'],
    over: Partial<PermissionContext> = {},
  ): PermissionContext => ({
    user,
    server,
    isPlus: true,
    ns: NS,
    ...over,
  });
  const lock = { area: 'devices', action: 'lock' } as const;
  const withBits = (...bits: number[]) => ({
    attributes: { 'rastro.advancedPerms': permissionStringFromBits(bits) },
  });

  it('QR driver refused even as admin; admin allowed; not plus allows', () => {
    const qr = { attributes: { 'rastro.isQrDriverId': 5, 'rastro.advancedPerms': ALL_PERMISSIONS } };
    expect(apiDenial(ctx({ ...qr, administrator: true }), lock)).toBe('denied.qrDriver');
    expect(apiDenial(ctx({ administrator: true, ...withBits() }), lock)).toBeNull();
    expect(apiDenial(ctx(withBits(), { isPlus: false }), lock)).toBeNull();
  });

  it('enabled + string: the bit decides (devices.lock is bit 9)', () => {
    expect(apiDenial(ctx(withBits(9)), lock)).toBeNull();
    expect(apiDenial(ctx({ attributes: { 'rastro.advancedPerms': NO_PERMISSIONS } }), lock)).toBe(
      'denied.permission',
    );
  });

  it('otherwise non-shared allowed, shared guests refused with their own message', () => {
    expect(apiDenial(ctx(withBits(), { server: { attributes: {} } }), lock)).toBeNull();
    expect(apiDenial(ctx({ temporary: true }, { server: { attributes: {} } }), lock)).toBe(
      'denied.sharedGuest',
    );
  });
});
