// Commands (CONTRACT §4, §6): types, sending saved or ad-hoc commands live (200) or queued for the device's
// next report (202 + QueuedCommand; an OsmAnd device receives the command data as its HTTP answer).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  COMMAND_TYPES,
  INTERLOCK_COMMAND,
  forceRequested,
  mayWrite,
  normalizeCommandType,
  withoutForce,
  type Command,
  type QueuedCommand,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { findSavedCommandAsync, savedCommandsByDescription } from '../db/repos/catalog.ts';
import { badRequest, denied } from '../errors.ts';
import { requireUser } from '../traccar/auth.ts';
import {
  accessibleDevicesOf,
  canAccessDevice,
  canSee,
  serverFlagsAsync,
  visibleIds,
  withSubgroups,
} from '../traccar/access.ts';
import { parseJson } from './cache.ts';
import type { LiveCore } from './ingest.ts';
import { checkEngineBlock, logEngineDelivery } from './interlock.ts';
import { edge, edgeValue } from '../edge.ts';

/**
 * What a phone reporting with the OsmAnd protocol acts on: the Traccar Client app executes exactly these (Traccar
 * sends them to it as push messages: TraccarCommandSender's supported commands).
 */
export const PHONE_COMMAND_TYPES = [
  'positionSingle',
  'positionPeriodic',
  'positionStop',
  'factoryReset',
] as const;

/** What a vehicle tracker of the demo fleet executes (its command sink declares them, simulator/index.ts). */
export const TRACKER_COMMAND_TYPES = [
  'custom',
  'positionSingle',
  'positionPeriodic',
  'positionStop',
  'engineStop',
  'engineResume',
  'alarmArm',
  'alarmDisarm',
  'rebootDevice',
] as const;

export type Delivery = { queued: false; command: Command } | { queued: true; command: QueuedCommand };

/** Sends live when the device is reachable now, otherwise queues for its next report. */
export async function deliverCommand(live: LiveCore, deviceId: number, command: Command): Promise<Delivery> {
  if (await live.canSendLive(deviceId)) {
    await live.sendLive(deviceId, command);
    return { queued: false, command };
  }
  if (command.attributes.noQueue === true || command.attributes.noQueue === 'true') {
    throw badRequest('Device is not online and the command must not be queued');
  }
  return { queued: true, command: await live.queueCommand(deviceId, command) };
}

const commandBody = z.object({
  id: z.number().int().min(0).optional().default(0),
  deviceId: z.number().int().min(0).optional().default(0),
  // the type the gate, the interlock and the device read (" ENGINESTOP\t" is engineStop)
  type: z.string().max(128).transform(normalizeCommandType).optional().default(''),
  textChannel: z.boolean().optional().default(false),
  description: z.string().max(4096).nullable().optional().default(null),
  attributes: z
    .record(z.string().max(200), z.json())
    .nullable()
    .optional()
    .transform((v) => v ?? {}),
});

const optionalId = z
  .string()
  .optional()
  .transform((v, c) => {
    if (v === undefined || v === '') return undefined;
    if (!/^\d{1,15}$/.test(v)) {
      c.addIssue({ code: 'custom', message: `invalid id "${v.slice(0, 30)}"` });
      return z.NEVER;
    }
    return Number(v);
  });

const typesQuery = z.object({ deviceId: optionalId, textChannel: z.enum(['true', 'false']).optional() });
const deviceQuery = z.object({ deviceId: optionalId });
const groupQuery = z.object({ groupId: optionalId });

export async function registerCommandRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  live: LiveCore,
): Promise<void> {
  /**
   * Types offered for a device (GET /api/commands/types, the saved-command filter): `custom` before it reported or
   * over SMS; a receiver's own list (the simulated trackers); an OsmAnd phone what the Traccar Client app acts on.
   */
  const supportedTypes = async (deviceId: number, textChannel: boolean): Promise<string[]> => {
    const last = await live.latestPositionAsync(deviceId);
    if (!last || textChannel) return ['custom'];
    const own = await live.commandTypesOf(deviceId);
    if (own) return [...own];
    return last.protocol === 'osmand' ? [...PHONE_COMMAND_TYPES] : [...TRACKER_COMMAND_TYPES];
  };

  app.get('/api/commands/types', edge({ query: typesQuery, need: 'table' }), async (req) => {
    const user = await requireUser(ctx, req);
    const q = edgeValue(typesQuery, req.query);
    if (q.deviceId === undefined) return COMMAND_TYPES.map((type) => ({ type }));
    if (!(await canAccessDevice(ctx, user, q.deviceId))) throw denied('Device access denied');
    return (await supportedTypes(q.deviceId, q.textChannel === 'true')).map((type) => ({ type }));
  });

  /** Saved commands linked to both the caller and the device (directly or via its groups). */
  app.get('/api/commands/send', edge({ query: deviceQuery, need: 'table' }), async (req) => {
    const user = await requireUser(ctx, req);
    const q = edgeValue(deviceQuery, req.query);
    if (q.deviceId === undefined) throw badRequest('deviceId is required');
    if (!(await canAccessDevice(ctx, user, q.deviceId))) throw denied('Device access denied');
    const cache = await live.cache.freshAsync();
    const device = cache.device(q.deviceId);
    if (!device) throw denied('Device access denied');
    const deviceCommands = new Set(cache.linked('device', device.id, 'command'));
    for (const g of cache.groupChain(device.groupId))
      for (const c of cache.linked('group', g, 'command')) deviceCommands.add(c);
    const mine = new Set(await visibleIds(ctx, user.id, 'command'));
    const supported = new Set(await supportedTypes(device.id, false));
    const rows = await savedCommandsByDescription(ctx.store.sql);
    return rows
      .filter((r) => deviceCommands.has(r.id) && (user.administrator || mine.has(r.id)))
      .filter((r) => r.textChannel || supported.has(r.type))
      .map((r) => ({
        id: r.id,
        attributes: parseJson(r.attributes),
        deviceId: 0,
        type: r.type,
        textChannel: !!r.textChannel,
        description: r.description,
      }));
  });

  const sendEdge = edge({ body: commandBody, query: groupQuery, need: 'table' });
  app.post('/api/commands/send', sendEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const body = edgeValue(commandBody, req.body);
    const q = edgeValue(groupQuery, req.query);
    let command: Command;
    if (body.id > 0) {
      const row = await findSavedCommandAsync(ctx.store.sql, body.id);
      if (!row || !(await canSee(ctx, user, 'command', body.id))) throw denied('Command access denied');
      command = {
        id: row.id,
        deviceId: body.deviceId,
        type: normalizeCommandType(row.type),
        textChannel: !!row.textChannel,
        description: row.description,
        attributes: parseJson(row.attributes) as Command['attributes'],
      };
    } else {
      // ad-hoc commands: refused for limitCommands and readonly users (they may send saved ones only)
      if (!mayWrite(user, await serverFlagsAsync(ctx), 'command')) {
        throw denied('Operation restricted');
      }
      if (!body.type) throw badRequest('type: command type is required');
      command = {
        id: 0,
        deviceId: body.deviceId,
        type: body.type,
        textChannel: body.textChannel,
        description: body.description,
        attributes: body.attributes as Command['attributes'],
      };
    }
    // engine-block interlock (live/interlock.ts): `attributes.force` of the request is an administrator's
    // override; it is never passed on to the device
    const force = forceRequested(body.attributes);
    command = { ...command, attributes: withoutForce(command.attributes) };
    const interlock = (ids: number[]) =>
      command.type === INTERLOCK_COMMAND ? checkEngineBlock(ctx, req, user, live, ids, force) : undefined;
    const cache = await live.cache.freshAsync(); // the interlock reads it too, in this same turn
    if (q.groupId !== undefined) {
      if (!(await canSee(ctx, user, 'group', q.groupId))) throw denied('Group access denied');
      const groups = await withSubgroups(ctx.store.sql, [q.groupId]);
      const inGroups = [...cache.devices.values()].filter((d) => groups.has(d.groupId));
      const targets = (await accessibleDevicesOf(ctx, user, inGroups)).map((d) => d.id);
      const decisions = await interlock(targets);
      const queued: QueuedCommand[] = [];
      for (const id of targets) {
        const r = await deliverCommand(live, id, { ...command, deviceId: id });
        await logEngineDelivery(ctx, req, user.id, id, command.type, r.queued, decisions?.get(id));
        if (r.queued) queued.push(r.command);
      }
      if (queued.length) return reply.status(202).send(queued);
      return reply.status(200).send(command);
    }
    if (!command.deviceId) throw badRequest('deviceId is required');
    if (!cache.device(command.deviceId) || !(await canAccessDevice(ctx, user, command.deviceId))) {
      throw denied('Device access denied');
    }
    const decisions = await interlock([command.deviceId]);
    const r = await deliverCommand(live, command.deviceId, command);
    await logEngineDelivery(
      ctx,
      req,
      user.id,
      command.deviceId,
      command.type,
      r.queued,
      decisions?.get(command.deviceId),
    );
    return reply.status(r.queued ? 202 : 200).send(r.command);
  });
}
