// Request bodies of the Traccar object resources (CONTRACT §3, §4). Every field has the default Traccar
// applies when it is omitted, so one schema serves POST (create) and PUT (full replacement). Unknown
// properties are ignored; read-only/derived fields (Device status, lastUpdate, positionId) are accepted and
// dropped by the server.
import { z } from 'zod';
import { EVENT_TYPES, COMMAND_TYPES } from '../types.ts';
import { validateArea } from './area.ts';
import { validateCalendarData } from './calendar.ts';
import { attributes, bool, int, nullableStr, num, numericText, optionalDate, refId } from './common.ts';

const name = z.string().trim().min(1, 'name is required').max(512);

export const deviceInput = z.object({
  id: refId,
  attributes,
  groupId: refId,
  calendarId: refId,
  name,
  uniqueId: z.string().trim().min(1, 'uniqueId is required').max(128),
  phone: nullableStr(128),
  model: nullableStr(128),
  contact: nullableStr(512),
  category: nullableStr(128),
  disabled: bool,
  expirationTime: optionalDate,
});
export type DeviceInput = z.infer<typeof deviceInput>;

export const groupInput = z.object({ id: refId, attributes, groupId: refId, name });
export type GroupInput = z.infer<typeof groupInput>;

export const geofenceInput = z.object({
  id: refId,
  attributes,
  calendarId: refId,
  name,
  description: nullableStr(4096),
  area: z
    .string()
    .max(200_000)
    .superRefine((v, ctx) => {
      const r = validateArea(v);
      if (r) ctx.addIssue({ code: 'custom', message: r });
    }),
});
export type GeofenceInput = z.infer<typeof geofenceInput>;

export const driverInput = z.object({
  id: refId,
  attributes,
  name,
  uniqueId: z.string().trim().min(1, 'uniqueId is required').max(128),
});
export type DriverInput = z.infer<typeof driverInput>;

export const calendarInput = z.object({
  id: refId,
  attributes,
  name,
  data: z
    .string()
    .max(1_000_000)
    .superRefine((v, ctx) => {
      const r = validateCalendarData(v);
      if (r) ctx.addIssue({ code: 'custom', message: r });
    }),
});
export type CalendarInput = z.infer<typeof calendarInput>;

export const maintenanceInput = z.object({
  id: refId,
  attributes,
  name,
  type: z.string().trim().min(1, 'type is required').max(128),
  start: num,
  period: num,
});
export type MaintenanceInput = z.infer<typeof maintenanceInput>;

/** Comma list of notificator names, e.g. "web,mail". */
const notificators = z
  .string()
  .max(512)
  .regex(/^[a-zA-Z0-9_]*(,[a-zA-Z0-9_]+)*$/, 'notificators must be a comma list like "web,mail"')
  .default('');

export const notificationInput = z.object({
  id: refId,
  attributes,
  description: nullableStr(4096),
  calendarId: refId,
  always: bool,
  type: z.enum(EVENT_TYPES, { message: 'unknown event type' }),
  commandId: refId,
  notificators,
});
export type NotificationInput = z.infer<typeof notificationInput>;

export const commandInput = z.object({
  id: refId,
  attributes,
  deviceId: refId,
  type: z.enum(COMMAND_TYPES, { message: 'unknown command type' }),
  textChannel: bool,
  description: nullableStr(4096),
});
export type CommandInput = z.infer<typeof commandInput>;

export const computedAttributeInput = z.object({
  id: refId,
  description: z.string().max(4096).default(''),
  attribute: z.string().trim().min(1, 'attribute is required').max(128),
  expression: z.string().min(1, 'expression is required').max(8192),
  type: z.enum(['string', 'number', 'boolean'], { message: 'type must be string, number or boolean' }),
  priority: int,
});
export type ComputedAttributeInput = z.infer<typeof computedAttributeInput>;

export const orderInput = z.object({
  id: refId,
  attributes,
  uniqueId: z.string().trim().min(1, 'uniqueId is required').max(128),
  description: nullableStr(4096),
  fromAddress: nullableStr(1024),
  toAddress: nullableStr(1024),
});
export type OrderInput = z.infer<typeof orderInput>;

export const SCHEDULED_REPORT_TYPES = ['events', 'route', 'summary', 'trips', 'stops', 'devices'] as const;

export const scheduledReportInput = z.object({
  id: refId,
  attributes,
  calendarId: refId,
  type: z.enum(SCHEDULED_REPORT_TYPES, {
    message: 'type must be events, route, summary, trips, stops or devices',
  }),
  description: nullableStr(4096),
});
export type ScheduledReportInput = z.infer<typeof scheduledReportInput>;

export const userInput = z.object({
  id: refId,
  attributes,
  name,
  login: nullableStr(256),
  email: z.string().trim().min(1, 'email is required').max(256),
  phone: nullableStr(128),
  readonly: bool,
  administrator: bool,
  map: nullableStr(128),
  latitude: num,
  longitude: num,
  zoom: int,
  coordinateFormat: nullableStr(64),
  disabled: bool,
  expirationTime: optionalDate,
  deviceLimit: z.number().int().min(-1).default(0),
  userLimit: z.number().int().min(-1).default(0),
  deviceReadonly: bool,
  limitCommands: bool,
  disableReports: bool,
  fixedEmail: bool,
  poiLayer: nullableStr(1024),
  totpKey: nullableStr(128),
  temporary: bool,
  /** Write-only: null/empty keeps the stored password. */
  password: z.string().max(256).nullable().default(null),
});
export type UserInput = z.infer<typeof userInput>;

export const serverInput = z.object({
  id: refId,
  attributes,
  registration: bool,
  readonly: bool,
  deviceReadonly: bool,
  map: nullableStr(128),
  bingKey: nullableStr(256),
  mapUrl: nullableStr(2048),
  overlayUrl: nullableStr(2048),
  latitude: num,
  longitude: num,
  zoom: int,
  forceSettings: bool,
  coordinateFormat: nullableStr(64),
  limitCommands: bool,
  disableReports: bool,
  fixedEmail: bool,
  poiLayer: nullableStr(2048),
  announcement: nullableStr(4096),
});
export type ServerInput = z.infer<typeof serverInput>;

/** A permission link: exactly two `<stem>Id` keys, owner first (CONTRACT §3). */
export const PERMISSION_KEYS = [
  'userId',
  'deviceId',
  'groupId',
  'geofenceId',
  'notificationId',
  'calendarId',
  'attributeId',
  'driverId',
  'managedUserId',
  'commandId',
  'maintenanceId',
  'linkedDeviceId',
  'orderId',
  'reportId',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

/** Owner stem → property stems that may be linked to it (CONTRACT §3 "Link tables that exist"). */
export const PERMISSION_PAIRS: Record<string, readonly string[]> = {
  user: [
    'device',
    'group',
    'geofence',
    'notification',
    'calendar',
    'attribute',
    'driver',
    'managedUser',
    'command',
    'maintenance',
    'order',
    'report',
  ],
  device: [
    'geofence',
    'notification',
    'attribute',
    'driver',
    'command',
    'maintenance',
    'linkedDevice',
    'order',
    'report',
  ],
  group: ['geofence', 'notification', 'attribute', 'driver', 'command', 'maintenance', 'order', 'report'],
};

export interface ParsedPermission {
  ownerType: string;
  ownerId: number;
  propertyType: string;
  propertyId: number;
}

export const permissionInput = z.record(z.string(), z.unknown()).transform((obj, ctx): ParsedPermission => {
  const keys = Object.keys(obj);
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (keys.length !== 2) return fail('a permission has exactly two keys, e.g. {"userId":1,"deviceId":2}');
  const [ownerKey, propertyKey] = keys;
  for (const k of keys) {
    if (!(PERMISSION_KEYS as readonly string[]).includes(k))
      return fail(`unknown permission key "${k.slice(0, 40)}"`);
    const v = numericText(obj[k]);
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > Number.MAX_SAFE_INTEGER) {
      return fail(`${k} must be a positive integer`);
    }
  }
  const ownerType = ownerKey.slice(0, -2);
  const propertyType = propertyKey.slice(0, -2);
  if (!PERMISSION_PAIRS[ownerType]?.includes(propertyType)) {
    return fail(`cannot link ${propertyKey} to ${ownerKey}`);
  }
  return {
    ownerType,
    ownerId: numericText(obj[ownerKey]) as number,
    propertyType,
    propertyId: numericText(obj[propertyKey]) as number,
  };
});

export const permissionBulkInput = z.array(permissionInput).max(10_000);
