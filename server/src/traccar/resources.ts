// The object resources served by the generic CRUD (CONTRACT §3, §4): one definition each.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { checkResellerDeviceCaps, rowIsReseller } from './resellers.ts';
import {
  calendarInput,
  commandInput,
  computedAttributeInput,
  deviceInput,
  driverInput,
  geofenceInput,
  groupInput,
  maintenanceInput,
  notificationInput,
  notificationRuleProblem,
  orderInput,
  scheduledReportInput,
  type Notification,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { storedDeviceCountAsync, deleteDeviceHistory } from '../db/repos/devices.ts';
import { parentGroupIdAsync } from '../db/repos/fleet.ts';
import { clearReference } from '../db/repos/objects.ts';
import { applyQrPassword, driverToJson } from './driverPassword.ts';
import { invalidInput } from '../invalid.ts';
import { badRequest, denied } from '../errors.ts';
import { serverAttribute, visibleDeviceIds } from './access.ts';
import { registerResource, type ResourceDef } from './crud.ts';
import { COLUMNS, DEVICE_JSON_SQL, deviceToJson, rowToJson } from './model.ts';

type AnySchema = z.ZodType<Record<string, unknown>>;

/** Walks up from `parentId`; reaching `selfId` (or looping) means a cycle. */
async function checkGroupCycle(ctx: AppContext, selfId: number, parentId: number): Promise<void> {
  const seen = new Set<number>();
  let g = parentId;
  while (g > 0) {
    if (g === selfId || seen.has(g)) throw badRequest('Cycle in group hierarchy');
    seen.add(g);
    g = (await parentGroupIdAsync(ctx.store.sql, g)) ?? 0;
  }
}

export const RESOURCES: ResourceDef[] = [
  {
    path: 'devices',
    table: 'devices',
    type: 'device',
    columns: COLUMNS.devices,
    schema: deviceInput as AnySchema,
    listKind: 'devices',
    sort: 'name',
    search: ['name', 'uniqueId', 'phone', 'model', 'contact'],
    writeKind: 'device',
    refs: [
      { field: 'groupId', type: 'group' },
      { field: 'calendarId', type: 'calendar' },
    ],
    keep: ['status', 'lastUpdate', 'positionId'],
    createValues: { status: null, lastUpdate: null, positionId: 0 },
    toJson: deviceToJson,
    jsonOverrides: DEVICE_JSON_SQL,
    async beforeCreate(ctx, user, _input, req) {
      // The licence cap (RASTRO_DEVICE_LIMIT, the devicelimit header) and the server attribute {ns}.deviceLimit
      // bind everyone, administrators included (SPEC §5); 0 or absent means no cap.
      const total = await storedDeviceCountAsync(ctx.store.sql);
      const attrCap = Number((await serverAttribute(ctx, `${ctx.config.ns}.deviceLimit`)) ?? 0);
      for (const cap of [ctx.config.deviceLimit, Number.isFinite(attrCap) ? attrCap : 0]) {
        if (cap > 0 && total >= cap) throw denied('Device limit reached');
      }
      if (user.administrator) return;
      // a reseller's deviceLimit counts its whole subtree, and binds every user below it too (resellers.ts)
      await checkResellerDeviceCaps(ctx, req, user);
      if (user.deviceLimit === -1 || rowIsReseller(ctx, user)) return;
      if (user.deviceLimit === 0) throw denied('Write access denied');
      if ((await visibleDeviceIds(ctx, user)).length >= user.deviceLimit) throw denied('Write access denied');
    },
    affectsVisibility: (input, existing) => !existing || input.groupId !== existing.groupId,
    onDelete: (tx, id) => deleteDeviceHistory(tx, id),
  },
  {
    path: 'groups',
    table: 'groups',
    type: 'group',
    columns: COLUMNS.groups,
    schema: groupInput as AnySchema,
    listKind: 'simple',
    sort: 'name',
    search: ['name'],
    refs: [{ field: 'groupId', type: 'group' }],
    async validate(ctx, input, existing) {
      if (existing) await checkGroupCycle(ctx, existing.id, Number(input.groupId));
    },
    affectsVisibility: (input, existing) => !existing || input.groupId !== existing.groupId,
    async onDelete(tx, id) {
      await clearReference(tx, { table: 'devices', column: 'groupId' }, id);
      await clearReference(tx, { table: 'groups', column: 'groupId' }, id);
    },
  },
  {
    path: 'geofences',
    table: 'geofences',
    type: 'geofence',
    columns: COLUMNS.geofences,
    schema: geofenceInput as AnySchema,
    listKind: 'extended',
    sort: 'name',
    search: ['name', 'description'],
    refs: [{ field: 'calendarId', type: 'calendar' }],
  },
  {
    path: 'drivers',
    table: 'drivers',
    type: 'driver',
    columns: COLUMNS.drivers,
    schema: driverInput as AnySchema,
    listKind: 'extended',
    sort: 'name',
    search: ['name', 'uniqueId'],
    toJson: driverToJson,
    validate: (_ctx, input, existing) => applyQrPassword(input, existing),
  },
  {
    path: 'calendars',
    table: 'calendars',
    type: 'calendar',
    columns: COLUMNS.calendars,
    schema: calendarInput as AnySchema,
    listKind: 'simple',
    sort: 'name',
    search: ['name'],
    async onDelete(tx, id) {
      for (const table of ['devices', 'geofences', 'notifications', 'reports'] as const) {
        await clearReference(tx, { table, column: 'calendarId' }, id);
      }
    },
  },
  {
    path: 'maintenance',
    table: 'maintenances',
    type: 'maintenance',
    columns: COLUMNS.maintenances,
    schema: maintenanceInput as AnySchema,
    listKind: 'extended',
    sort: 'name',
    search: ['name', 'type'],
  },
  {
    path: 'notifications',
    table: 'notifications',
    type: 'notification',
    columns: COLUMNS.notifications,
    schema: notificationInput as AnySchema,
    listKind: 'extended',
    sort: 'description',
    search: ['description', 'type'],
    refs: [
      { field: 'calendarId', type: 'calendar' },
      { field: 'commandId', type: 'command' },
    ],
    // SPEC §5 notification rules, the web form's schema (domain notificationRuleProblem).
    validate(ctx, input, _existing, who) {
      const problem = notificationRuleProblem(input as unknown as Notification, { ns: ctx.config.ns });
      if (problem) throw invalidInput(ctx, who.req, who.user, problem.key);
    },
  },
  {
    path: 'commands',
    table: 'commands',
    type: 'command',
    columns: COLUMNS.commands,
    schema: commandInput as AnySchema,
    listKind: 'extended',
    sort: 'description',
    search: ['description', 'type'],
    writeKind: 'command',
    // Saved commands carry `deviceId` only when sent; it is not stored.
    toJson: (row, ex) => ({ ...rowToJson(COLUMNS.commands, row, ex), deviceId: 0 }),
    onDelete: (tx, id) => clearReference(tx, { table: 'notifications', column: 'commandId' }, id),
  },
  {
    path: 'attributes/computed',
    table: 'computed_attributes',
    type: 'attribute',
    columns: COLUMNS.computed_attributes,
    schema: computedAttributeInput as AnySchema,
    listKind: 'extended',
    sort: 'description',
    search: ['description', 'attribute'],
    writeKind: 'attribute',
  },
  {
    path: 'orders',
    table: 'orders',
    type: 'order',
    columns: COLUMNS.orders,
    schema: orderInput as AnySchema,
    listKind: 'simple',
    sort: 'description',
    search: ['uniqueId', 'description', 'fromAddress', 'toAddress'],
  },
  {
    // Scheduled reports: stored and linked; live/reports/scheduled.ts runs them when their calendar period ends.
    path: 'reports',
    table: 'reports',
    type: 'report',
    columns: COLUMNS.reports,
    schema: scheduledReportInput as AnySchema,
    listKind: 'simple',
    sort: 'description',
    search: ['description', 'type'],
    refs: [{ field: 'calendarId', type: 'calendar' }],
  },
];

export function registerResources(app: FastifyInstance, ctx: AppContext): void {
  for (const def of RESOURCES) registerResource(app, ctx, def);
}
