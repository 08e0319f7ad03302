// The engine-block interlock on the server (rule: packages/domain engineInterlock.ts; docs/device-actions.md).
// POST /api/commands/send calls it for every engineStop (ad-hoc or saved, live or queued, one device or a group)
// before anything is delivered, and records each engine command (engineStop, engineResume) in the device's log:
// the audit trail's `actions` table, actionType 'command', objectType 'device', attributes
// { type, outcome: sent|queued|forced|refused, speed?, limit?, speedAge? } with the user who sent it; an engineStop
// let through because its newest speed is old (past 5 minutes) records that speed and its age in seconds.
import type { FastifyRequest } from 'fastify';
import {
  INTERLOCK_COMMAND,
  UNBLOCK_COMMAND,
  blockMaxSpeed,
  normalizeCommandType,
  engineBlockDecision,
  type EngineLogAttributes,
  type EngineLogOutcome,
  type InterlockDecision,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { refused, requestLanguage } from '../refusal.ts';
import { logAction } from '../traccar/audit.ts';
import type { UserRow } from '../traccar/auth.ts';
import type { LiveCore } from './ingest.ts';

/** Whether a command type is written to the device log (read as the gate reads it: normalizeCommandType). */
export const isEngineCommand = (type: string): boolean => {
  const t = normalizeCommandType(type);
  return t === INTERLOCK_COMMAND || t === UNBLOCK_COMMAND;
};

/** Records one engine command of `user` on `deviceId` in the device log (written without the main thread waiting). */
export async function logEngineCommand(
  ctx: AppContext,
  req: FastifyRequest,
  userId: number,
  deviceId: number,
  type: string,
  outcome: EngineLogOutcome,
  extra: Omit<EngineLogAttributes, 'type' | 'outcome'> = {},
): Promise<void> {
  await logAction(ctx, req, userId, 'command', 'device', deviceId, { type, outcome, ...extra });
}

const speedDetails = (d: InterlockDecision) =>
  d.speedKmh === null ? { limit: d.limitKmh } : { speed: d.speedKmh, limit: d.limitKmh };

/** An old speed (domain speedAge: past INTERLOCK_FRESH_MS) and its age in seconds, as the dialog showed it. */
const oldSpeedDetails = (d: InterlockDecision | undefined) =>
  d?.reason === 'stale' && d.speedKmh !== null && d.speedAgeMs !== null
    ? { speed: d.speedKmh, speedAge: Math.floor(d.speedAgeMs / 1000) }
    : {};

/**
 * Decides an engineStop for each device. When one is refused, every refused device gets a log entry and the
 * request fails with a 403 naming the first one's speed and the limit: nothing is sent or queued. Otherwise the
 * decisions are returned (by device id) for the delivery log.
 */
export async function checkEngineBlock(
  ctx: AppContext,
  req: FastifyRequest,
  user: UserRow,
  live: LiveCore,
  deviceIds: readonly number[],
  force: boolean,
): Promise<Map<number, InterlockDecision>> {
  const cache = live.cache; // made fresh by the caller (commands.ts awaits freshAsync): never read here, waited
  const limitKmh = blockMaxSpeed(cache.serverAttrs, ctx.config.ns);
  const now = Date.now();
  const decisions = new Map<number, InterlockDecision>();
  const blocked: number[] = [];
  await live.loadLatestAsync(deviceIds); // their latest positions, on the pool where memory lacks them
  for (const id of deviceIds) {
    const d = engineBlockDecision({
      position: live.latestInMemory(id),
      now,
      limitKmh,
      isAdmin: !!user.administrator,
      force,
    });
    decisions.set(id, d);
    if (!d.allowed) blocked.push(id);
  }
  if (!blocked.length) return decisions;
  const first = decisions.get(blocked[0]!)!;
  const number = new Intl.NumberFormat(requestLanguage(ctx, req, user), { maximumFractionDigits: 1 });
  const refusal = refused(ctx, req, user, 'denied.engineBlockMoving', {
    name: cache.device(blocked[0]!)?.name ?? `#${blocked[0]}`,
    speed: number.format(first.speedKmh ?? 0),
    limit: number.format(first.limitKmh),
  });
  for (const id of blocked) {
    const d = decisions.get(id)!;
    await logEngineCommand(ctx, req, user.id, id, INTERLOCK_COMMAND, 'refused', {
      ...speedDetails(d),
      ...(d.forceIgnored ? { forceIgnored: true } : {}),
    });
  }
  throw refusal;
}

/** The log entry of a delivered engine command: forced (admin override) before queued before sent. */
export async function logEngineDelivery(
  ctx: AppContext,
  req: FastifyRequest,
  userId: number,
  deviceId: number,
  type: string,
  queued: boolean,
  decision: InterlockDecision | undefined,
): Promise<void> {
  if (!isEngineCommand(type)) return;
  const outcome: EngineLogOutcome = decision?.forced ? 'forced' : queued ? 'queued' : 'sent';
  const extra: Omit<EngineLogAttributes, 'type' | 'outcome'> = decision?.forced
    ? { ...speedDetails(decision), ...(queued ? { queued: true } : {}) }
    : oldSpeedDetails(decision);
  await logEngineCommand(ctx, req, userId, deviceId, type, outcome, extra);
}
