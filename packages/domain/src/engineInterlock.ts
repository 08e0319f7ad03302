// The engine-block interlock (issue #10, beyond the spec): the server refuses an engineStop to a vehicle that is
// moving. A block is refused when the device's last position is fresh (at most 5 minutes old, by its fix time) and
// its speed, in km/h rounded to one decimal, is above the server's `{ns}.blockMaxSpeed` (km/h, default 20).
// 0 means "block only a stopped vehicle": any reported movement refuses. A stale or missing position does not
// block. An administrator may override the refusal with `attributes.force: true` in the command; a non-admin's
// force is ignored (the rule applies as if it were absent).
import { attrBool, attrNumber, nsKey } from './attributes.ts';
import { knotsToKmh } from './units.ts';

/** Attributes as stored or as received (JSON values). */
type AnyAttributes = Readonly<Record<string, unknown>>;

/** The command the interlock guards. */
export const INTERLOCK_COMMAND = 'engineStop';
/** The command logged alongside it (unblock). */
export const UNBLOCK_COMMAND = 'engineResume';
/** `{ns}.blockMaxSpeed` when the server does not set it (km/h). */
export const BLOCK_MAX_SPEED_DEFAULT_KMH = 20;
/** Highest limit accepted by the settings form (km/h). */
export const BLOCK_MAX_SPEED_MAX_KMH = 1000;
/** A position older than this no longer blocks (ms). */
export const INTERLOCK_FRESH_MS = 5 * 60_000;
/** The command attribute an administrator sets to override a refusal. */
export const FORCE_ATTRIBUTE = 'force';

/** The server's block speed limit in km/h: `{ns}.blockMaxSpeed` when it is a number ≥ 0, else the default. */
export function blockMaxSpeed(serverAttributes: AnyAttributes | null | undefined, ns: string): number {
  const v = attrNumber(serverAttributes?.[nsKey(ns, 'blockMaxSpeed')]);
  return v !== undefined && v >= 0 ? v : BLOCK_MAX_SPEED_DEFAULT_KMH;
}

/** Whether the command asks to override the interlock (`attributes.force` true or 'true'). */
export function forceRequested(attributes: AnyAttributes | null | undefined): boolean {
  return attrBool(attributes?.[FORCE_ATTRIBUTE]);
}

/** The command's attributes without the override flag (what the device receives). */
export function withoutForce<T extends AnyAttributes>(attributes: T): T {
  const { [FORCE_ATTRIBUTE]: _force, ...rest } = attributes;
  return rest as T;
}

/** km/h rounded to one decimal, the precision the rule compares and the message shows. */
export const roundKmh = (kmh: number): number => Math.round(kmh * 10) / 10;

export interface InterlockInput {
  /** The device's last position (speed in knots), or null when it has none. */
  position: { fixTime: string | number | Date; speed: number | null | undefined } | null | undefined;
  /** Now, in ms since the epoch. */
  now: number;
  /** The limit in km/h (see blockMaxSpeed). */
  limitKmh: number;
  isAdmin: boolean;
  force: boolean;
}

export type InterlockReason = 'noPosition' | 'stale' | 'withinLimit' | 'tooFast';

export type InterlockDecision =
  | {
      allowed: true;
      reason: InterlockReason;
      /** True when an administrator's force let through a block the rule would refuse. */
      forced: boolean;
      /** True when a non-administrator asked for force (ignored). */
      forceIgnored: boolean;
      speedKmh: number | null;
      limitKmh: number;
    }
  | {
      allowed: false;
      reason: 'tooFast';
      forced: false;
      forceIgnored: boolean;
      speedKmh: number;
      limitKmh: number;
    };

function timeOf(t: string | number | Date): number {
  return t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t);
}

/** Whether an engineStop may go out now (see the file header for the rule). */
export function engineBlockDecision(input: InterlockInput): InterlockDecision {
  const { position, now, limitKmh, isAdmin, force } = input;
  const forceIgnored = force && !isAdmin;
  const base = { forced: false as const, forceIgnored, limitKmh };
  if (!position) return { allowed: true, reason: 'noPosition', speedKmh: null, ...base };
  const speedKmh = roundKmh(knotsToKmh(Number(position.speed) || 0));
  const fix = timeOf(position.fixTime);
  // an unreadable time counts as fresh (the safe side); a time in the future too
  if (Number.isFinite(fix) && now - fix > INTERLOCK_FRESH_MS) {
    return { allowed: true, reason: 'stale', speedKmh, ...base };
  }
  if (speedKmh <= limitKmh) return { allowed: true, reason: 'withinLimit', speedKmh, ...base };
  if (force && isAdmin) return { allowed: true, reason: 'tooFast', speedKmh, ...base, forced: true };
  return { allowed: false, reason: 'tooFast', speedKmh, ...base };
}

/** What the device log records for an engine command: sent, queued, forced (admin override) or refused. */
export type EngineLogOutcome = 'sent' | 'queued' | 'forced' | 'refused';

/** The log entry's attributes (actionType 'command', objectType 'device'). */
export interface EngineLogAttributes {
  type: string;
  outcome: EngineLogOutcome;
  speed?: number;
  limit?: number;
  [key: string]: unknown;
}

/** The translated label key of a logged command (web `logs` namespace): command.<type>.<outcome>. */
export function engineLogLabelKey(attributes: Record<string, unknown> | undefined): string | null {
  const type = attributes?.type;
  const outcome = attributes?.outcome;
  if (typeof type !== 'string' || typeof outcome !== 'string') return null;
  if (type !== INTERLOCK_COMMAND && type !== UNBLOCK_COMMAND) return null;
  if (!['sent', 'queued', 'forced', 'refused'].includes(outcome)) return null;
  return `command.${type}.${outcome}`;
}
