// Which advanced permission bit (SPEC §6, PERMISSION_LAYOUT) an API call needs: one map for the server's
// authorization hook (embedded and gateway mode) and the docs (docs/permissions.md has the same table).
//
// Exactly one requirement per call, or null when the call belongs to no area (session, server settings, catalogues,
// permission links, the live map's device and position lists…): those stay under Traccar's own rules only.
//
// Some calls cannot be classified from the request alone; the server looks the missing facts up first
// (apiPermissionLookups says which) and passes them as `facts`:
//   - POST /api/commands/send with the id of a saved command: the saved command's type decides lock/unlock/command;
//   - DELETE /api/geofences/{id}: an anchor geofence needs anchor.unlock instead of geofences.delete;
//   - PUT /api/geofences/{id}: making a geofence an anchor needs anchor.lock, unmaking an anchor anchor.unlock;
//   - PUT /api/users/{id}: one's own user is users.selfEdit, another user users.edit (needs the caller's id).
import { isAnchorGeofence } from './anchor.ts';
import { normalizeCommandType } from './commandType.ts';
import type { Attributes } from './types.ts';
import { allows, type Capability } from './access.ts';
import {
  isQrDriver,
  isShared,
  type PermissionAction,
  type PermissionArea,
  type PermissionContext,
} from './permissions.ts';

export interface ApiRequirement {
  area: PermissionArea;
  action: PermissionAction;
}

/** Facts the server looked up for calls whose requirement depends on stored objects. */
export interface ApiFacts {
  /** Type of the saved command named by the body's `id` (POST /api/commands/send). */
  savedCommandType?: string | null;
  /** Whether the stored geofence of DELETE or PUT /api/geofences/{id} is an anchor. */
  geofenceIsAnchor?: boolean;
  /** The caller's user id (GET/PUT /api/users/{id} of oneself). */
  userId?: number;
}

/** What the server must look up before calling apiPermission. */
export interface ApiLookups {
  savedCommandId?: number;
  geofenceId?: number;
}

/** Engine commands with their own bits (SPEC §4): block needs devices.lock, unblock devices.unlock. */
export const ENGINE_STOP = 'engineStop';
export const ENGINE_RESUME = 'engineResume';

/** The CRUD resources whose list/get/create/edit/delete map to view/view/create/edit/delete of one area. */
const CRUD_AREAS: Record<string, PermissionArea> = {
  devices: 'devices',
  geofences: 'geofences',
  groups: 'groups',
  notifications: 'notifications',
  drivers: 'drivers',
  calendars: 'calendars',
  maintenance: 'maintenance',
  commands: 'commands',
  'attributes/computed': 'computed',
  reports: 'reports',
};

const ID = /^\d{1,15}$/;

const req = (area: PermissionArea, action: PermissionAction): ApiRequirement => ({ area, action });

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function positiveId(value: unknown): number | undefined {
  const n = typeof value === 'string' && ID.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Percent-decoded like the router decodes it (`/api/device%73/1` is `/api/devices/1`); undecodable stays. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Path segments after the prefix, without query string or empty parts. */
function segments(path: string, prefix: string): string[] | null {
  const clean = decodePath(path.split('?', 1)[0]).replace(/\/+$/, '');
  if (clean !== prefix && !clean.startsWith(`${prefix}/`)) return null;
  return clean
    .slice(prefix.length)
    .split('/')
    .filter((s) => s !== '');
}

function crudAction(method: string, hasId: boolean): PermissionAction | null {
  if (method === 'GET') return 'view';
  if (method === 'POST' && !hasId) return 'create';
  if (method === 'PUT' && hasId) return 'edit';
  if (method === 'DELETE' && hasId) return 'delete';
  return null;
}

/**
 * engineStop ⇒ devices.lock, engineResume ⇒ devices.unlock, anything else ⇒ devices.command. The type is read as
 * the device will get it (normalizeCommandType): " engineStop " and "ENGINESTOP" are engineStop.
 */
export function commandRequirement(type: unknown): ApiRequirement {
  const t = typeof type === 'string' ? normalizeCommandType(type) : type;
  if (t === ENGINE_STOP) return req('devices', 'lock');
  if (t === ENGINE_RESUME) return req('devices', 'unlock');
  return req('devices', 'command');
}

/** The ids the server must resolve (saved command, geofence) before apiPermission can decide. */
export function apiPermissionLookups(method: string, path: string, body?: unknown): ApiLookups {
  const m = method.toUpperCase();
  const api = segments(path, '/api');
  if (!api) return {};
  if (m === 'POST' && api.join('/') === 'commands/send') {
    const savedCommandId = positiveId(record(body)?.id);
    return savedCommandId ? { savedCommandId } : {};
  }
  if ((m === 'DELETE' || m === 'PUT') && api.length === 2 && api[0] === 'geofences' && ID.test(api[1])) {
    return { geofenceId: Number(api[1]) };
  }
  return {};
}

function apiRequirement(m: string, s: string[], body: unknown, facts: ApiFacts): ApiRequirement | null {
  const [first, second, third] = s;
  const joined = s.join('/');

  // ---- commands: sending (devices bits) before the saved-command CRUD
  if (first === 'commands' && second === 'send' && s.length === 2) {
    if (m === 'GET') return req('devices', 'command');
    if (m !== 'POST') return null;
    const b = record(body);
    const saved = positiveId(b?.id) !== undefined;
    return commandRequirement(saved && facts.savedCommandType ? facts.savedCommandType : b?.type);
  }
  if (first === 'commands' && second === 'types') return null;

  // ---- users
  if (first === 'users') {
    if (s.length === 1)
      return m === 'GET' ? req('users', 'view') : m === 'POST' ? req('users', 'create') : null;
    if (s.length !== 2 || !ID.test(second)) return null; // /api/users/totp
    const self = facts.userId !== undefined && Number(second) === facts.userId;
    if (m === 'GET') return self ? null : req('users', 'view');
    if (m === 'PUT') return req('users', self ? 'selfEdit' : 'edit');
    if (m === 'DELETE') return req('users', 'delete');
    return null;
  }

  // ---- shares, events, positions, custom messages, notification tests
  if (first === 'share' && (second === 'device' || second === 'group') && s.length === 2)
    return m === 'POST' ? req('share', 'create') : null;
  if (first === 'events' && s.length === 2 && m === 'GET') return req('events', 'view');
  if (first === 'positions') {
    if (m === 'DELETE') return req('devices', 'delete');
    if (m === 'GET' && s.length === 2 && ['kml', 'csv', 'gpx'].includes(second))
      return req('reports', 'view');
    return null; // GET /api/positions: the live map of every user
  }
  if (first === 'notifications' && (second === 'types' || second === 'notificators')) return null;
  if (first === 'notifications' && second === 'test' && m === 'POST') return req('notifications', 'edit');
  if (first === 'notifications' && second === 'send' && m === 'POST') return req('users', 'command');
  if (joined === 'attributes/computed/test' && m === 'POST') return req('computed', 'edit');

  // ---- device sub-resources
  if (first === 'devices' && s.length === 3 && ID.test(second)) {
    if ((third === 'accumulators' && m === 'PUT') || (third === 'image' && m === 'POST'))
      return req('devices', 'edit');
    return null;
  }

  // ---- reports: runs (named) and scheduled reports (numeric ids, CRUD)
  if (first === 'reports' && second !== undefined && !ID.test(second)) {
    if (m !== 'GET') return null;
    return second === 'events' ? req('events', 'view') : req('reports', 'view');
  }

  // ---- generic CRUD
  const base = CRUD_AREAS[first] ? first : CRUD_AREAS[`${first}/${second}`] ? `${first}/${second}` : null;
  if (!base) return null;
  const rest = s.slice(base.split('/').length);
  if (rest.length > 1 || (rest.length === 1 && !ID.test(rest[0]))) return null;
  const hasId = rest.length === 1;
  const area = CRUD_AREAS[base];
  // The live map lists devices for every signed-in user (also shared-link guests and QR drivers): devices.view
  // gates the device screen's read of one device, not the list.
  if (area === 'devices' && m === 'GET' && !hasId) return null;
  const action = crudAction(m, hasId);
  if (!action) return null;
  if (area === 'geofences') {
    const b = record(body);
    const attributes = record(b?.attributes) as Attributes | null;
    const anchor = !!attributes && isAnchorGeofence({ attributes });
    if (action === 'create' && anchor) return req('anchor', 'lock');
    if (action === 'delete' && facts.geofenceIsAnchor) return req('anchor', 'unlock');
    // an edit that makes an anchor of a geofence, or a geofence of an anchor (the stored one is the fact)
    if (action === 'edit' && anchor && !facts.geofenceIsAnchor) return req('anchor', 'lock');
    if (action === 'edit' && !anchor && facts.geofenceIsAnchor) return req('anchor', 'unlock');
  }
  return req(area, action);
}

function extRequirement(m: string, s: string[]): ApiRequirement | null {
  const [first, second, third] = s;
  // Autolink creates a device (and its status query is only for those who may).
  if (first === 'autolink' && s.length === 1 && (m === 'GET' || m === 'POST'))
    return req('devices', 'create');
  // Shared links (SPEC §7 client A): list, create, change the expiry, revoke.
  if (first === 'shares' && s.length === 1)
    return m === 'GET' ? req('share', 'view') : m === 'POST' ? req('share', 'create') : null;
  if (first === 'shares' && s.length === 2 && ID.test(second))
    return m === 'PUT' ? req('share', 'edit') : m === 'DELETE' ? req('share', 'delete') : null;
  // Fleet insights: the dashboard and the scores are reports.
  if ((first === 'dashboard' && s.length === 1) || (first === 'scores' && s.length <= 2))
    return m === 'GET' ? req('reports', 'view') : null;
  if (!ID.test(second ?? '')) return null;
  if (first === 'devices' && third === 'photos') return req('devices', m === 'GET' ? 'view' : 'edit');
  if (first === 'drivers' && third === 'image' && (m === 'POST' || m === 'DELETE'))
    return req('drivers', 'edit');
  if (first === 'devices' && third === 'logs' && m === 'GET') return req('devices', 'view');
  if (first === 'users' && third === 'logs' && m === 'GET') return req('users', 'view');
  if (first === 'users' && third === 'suspend' && m === 'POST') return req('users', 'lock');
  if (first === 'users' && third === 'reactivate' && m === 'POST') return req('users', 'unlock');
  return null;
}

/**
 * The one advanced permission an API call needs, or null when it belongs to no area. `path` is the request path
 * (a query string is ignored), `ns` the extension namespace (`/{ns}/...` routes), `facts` what the server looked
 * up (see apiPermissionLookups). `query` is accepted for symmetry with the request; no mapping depends on it today.
 */
export function apiPermission(
  method: string,
  path: string,
  ns: string,
  body?: unknown,
  _query?: unknown,
  facts: ApiFacts = {},
): ApiRequirement | null {
  // HEAD is answered by the GET route (Fastify adds it), so it needs what GET needs.
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const api = segments(path, '/api');
  if (api) return api.length === 0 ? null : apiRequirement(m, api, body, facts);
  const ext = segments(path, `/${ns}`);
  return ext ? extRequirement(m, ext) : null;
}

export type ApiDenial = 'denied.qrDriver' | 'denied.sharedGuest' | 'denied.permission';

/** The access table's capability of a requirement: its advanced-permission bit. */
export const apiCapability = (requirement: ApiRequirement): Capability =>
  `bit.${requirement.area}.${requirement.action}`;

/**
 * Why the caller may not make a call needing `requirement` (the access table, SPEC §6 order), or null when allowed:
 * a QR driver and a shared-link guest get their own message, everyone else the area × action one.
 */
export function apiDenial(ctx: PermissionContext, requirement: ApiRequirement): ApiDenial | null {
  if (allows(ctx, apiCapability(requirement))) return null;
  if (isQrDriver(ctx.user, ctx.ns)) return 'denied.qrDriver';
  if (isShared(ctx.user)) return 'denied.sharedGuest';
  return 'denied.permission';
}

/**
 * Bits of PERMISSION_LAYOUT that no API call of Rastro needs today (docs/permissions.md): they only shape the web
 * app (or are reserved). Every other bit is the requirement of at least one call of apiPermission.
 */
export const BITS_WITHOUT_API: readonly ApiRequirement[] = [
  ...(['lock', 'unlock', 'command', 'selfEdit'] as const).flatMap((action) =>
    (
      [
        'geofences',
        'groups',
        'commands',
        'computed',
        'reports',
        'drivers',
        'calendars',
        'maintenance',
      ] as const
    ).map((area) => req(area, action)),
  ),
  req('devices', 'selfEdit'),
  req('events', 'delete'),
  ...(['view', 'command', 'create', 'edit', 'delete', 'selfEdit'] as const).map((a) => req('anchor', a)),
  ...(['lock', 'unlock', 'command', 'selfEdit'] as const).map((a) => req('share', a)),
  // opt-in bits read by the /{ns}/alarms routes themselves (alarms.ts isMonitoringOperator), not by this table
  req('monitoring', 'view'),
  req('monitoring', 'edit'),
];
