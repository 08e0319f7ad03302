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
/**
 * A position older than this no longer blocks (ms); its speed is then "old": the engine-block dialog shows its age
 * and the command's log entry records the speed and its age (speedAge, seconds).
 */
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

/** The newest speed the interlock knows: km/h (one decimal), its age and whether it is too old to trust. */
export interface SpeedAge {
  speedKmh: number;
  /** now − fix time in ms (0 for a time in the future), or null when the fix time cannot be read. */
  ageMs: number | null;
  /** Older than INTERLOCK_FRESH_MS: it no longer blocks, and the dialog and the log show its age. */
  old: boolean;
}

/** The age rule of the interlock's speed, shared by the decision, the device log and the engine-block dialog. */
export function speedAge(position: InterlockInput['position'], now: number): SpeedAge | null {
  if (!position) return null;
  const speedKmh = roundKmh(knotsToKmh(Number(position.speed) || 0));
  const fix = timeOf(position.fixTime);
  // an unreadable time counts as fresh (the safe side); a time in the future too
  if (!Number.isFinite(fix)) return { speedKmh, ageMs: null, old: false };
  const ageMs = Math.max(0, now - fix);
  return { speedKmh, ageMs, old: ageMs > INTERLOCK_FRESH_MS };
}

/** The age of an old speed in whole units for the reader ("12 min ago"): minutes, then hours, then days. */
export function speedAgeParts(ageMs: number): { value: number; unit: 'minute' | 'hour' | 'day' } {
  const minutes = Math.floor(Math.max(0, ageMs) / 60_000);
  if (minutes < 60) return { value: minutes, unit: 'minute' };
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return { value: hours, unit: 'hour' };
  return { value: Math.floor(hours / 24), unit: 'day' };
}

/** The age as the reader's language says it: "há 12 minutos", "hace 2 horas", "3 days ago". */
export function formatSpeedAge(ageMs: number, locale: string): string {
  const { value, unit } = speedAgeParts(ageMs);
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(-value, unit);
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
      /** Age of that speed in ms (speedAge), null without a position or a readable fix time. */
      speedAgeMs: number | null;
      limitKmh: number;
    }
  | {
      allowed: false;
      reason: 'tooFast';
      forced: false;
      forceIgnored: boolean;
      speedKmh: number;
      speedAgeMs: number | null;
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
  const age = speedAge(position, now);
  if (!age) return { allowed: true, reason: 'noPosition', speedKmh: null, speedAgeMs: null, ...base };
  const { speedKmh, ageMs: speedAgeMs } = age;
  if (age.old) return { allowed: true, reason: 'stale', speedKmh, speedAgeMs, ...base };
  if (speedKmh <= limitKmh) return { allowed: true, reason: 'withinLimit', speedKmh, speedAgeMs, ...base };
  if (force && isAdmin)
    return { allowed: true, reason: 'tooFast', speedKmh, speedAgeMs, ...base, forced: true };
  return { allowed: false, reason: 'tooFast', speedKmh, speedAgeMs, ...base };
}

/** What the device log records for an engine command: sent, queued, forced (admin override) or refused. */
export type EngineLogOutcome = 'sent' | 'queued' | 'forced' | 'refused';

/** The log entry's attributes (actionType 'command', objectType 'device'). */
export interface EngineLogAttributes {
  type: string;
  outcome: EngineLogOutcome;
  speed?: number;
  limit?: number;
  /** Age of that speed in seconds, recorded when it is old (speedAge). */
  speedAge?: number;
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
