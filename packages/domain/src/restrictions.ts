// Fail closed (issue #27): what an edit of the server (PUT /api/server) or of a user (PUT /api/users/{id}) lifts.
// A partial body never lifts a restriction by leaving a field out: the fields whose default would lift one keep
// their stored value when absent (keepAbsentFields). A restriction is lifted only by an explicit change, and the
// server records every such change in the audit log (liftedRestrictions names them).
import { DEFAULT_NS, attrBool, nsKey } from './attributes.ts';
import type { Attributes } from './types.ts';
import { effectivePermissionBits } from './userRules.ts';

export type RestrictionScope = 'server' | 'user';

/** Traccar's restriction flags, on the server (every non-admin) and on a user. */
export const RESTRICTION_FLAGS = ['readonly', 'deviceReadonly', 'limitCommands', 'disableReports'] as const;

/** A server or a user as far as its restrictions go (flags as booleans, attributes parsed). */
export interface RestrictionHolder {
  attributes?: Readonly<Record<string, unknown>> | null;
  readonly?: boolean;
  deviceReadonly?: boolean;
  limitCommands?: boolean;
  disableReports?: boolean;
  disabled?: boolean;
  administrator?: boolean;
  deviceLimit?: number;
  userLimit?: number;
  expirationTime?: string | null;
}

const ABSENT_KEPT: Record<RestrictionScope, readonly string[]> = {
  server: ['attributes', ...RESTRICTION_FLAGS],
  user: ['attributes', ...RESTRICTION_FLAGS, 'disabled', 'expirationTime'],
};

/**
 * `input` (the parsed body, defaults applied) with each field the body left out (`present`: the keys the raw body
 * carried, the edge's edgeBodyKeys) taken from `stored`, for the fields whose default would lift a restriction:
 * `attributes` (Traccar's own web app always sends the whole object; an explicitly sent object still replaces), the
 * flags, and for a user `disabled` (false) and `expirationTime` (none).
 */
export function keepAbsentFields<T extends object>(
  scope: RestrictionScope,
  present: ReadonlySet<string>,
  input: T,
  stored: object,
): T {
  const out = { ...input } as Record<string, unknown>;
  const from = stored as Record<string, unknown>;
  for (const key of ABSENT_KEPT[scope]) if (!present.has(key) && key in from) out[key] = from[key];
  return out as T;
}

/** Who writes a user's `totpKey`: the user themself, an administrator, or someone else (a manager). */
export type TotpWriter = 'self' | 'administrator' | 'other';

/**
 * The TOTP secret a user edit stores (docs/security.md "User answers"). An edit that leaves the key out keeps it
 * (fail closed). Only the user themself is ever answered the key, so an edit by anyone else that carries null (the
 * official web app sends back the null it was given) keeps the stored one too; an administrator clears it
 * explicitly with "" (`cleared`: audit it). The user themself removes it with null or "". A non-empty key is stored
 * as sent (Traccar's rule).
 */
export function keptTotpKey(
  writer: TotpWriter,
  sent: string | null | undefined,
  stored: string | null,
): { totpKey: string | null; cleared: boolean } {
  const cleared = (key: string | null) => ({ totpKey: key, cleared: !!stored && !key });
  if (sent) return { totpKey: sent, cleared: false };
  if (sent === undefined) return { totpKey: stored, cleared: false };
  if (writer === 'self') return cleared(null);
  if (writer === 'administrator' && sent === '') return cleared(null);
  return { totpKey: stored, cleared: false };
}

/** A limit of -1 is unlimited; any other value is a number of objects. */
function limitRaised(before: number | undefined, after: number | undefined): boolean {
  const b = before ?? 0;
  const a = after ?? 0;
  return b !== -1 && (a === -1 || a > b);
}

function expiryMs(value: string | null | undefined): number | null {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The restrictions the change from `before` to `after` lifts, by field name or attribute key (empty = none):
 * - server and user: readonly, deviceReadonly, limitCommands, disableReports turned off;
 * - server: `{ns}.enableAdvancedPerms` turned off (every user's permission string stops counting);
 * - user: disabled turned off, administrator turned on, deviceLimit / userLimit raised (-1 = unlimited), an
 *   expiration time moved later or removed, `{ns}.advancedPerms` granting a bit it did not grant (no string = every
 *   bit, a malformed one = none).
 */
export function liftedRestrictions(
  scope: RestrictionScope,
  before: RestrictionHolder,
  after: RestrictionHolder,
  ns: string = DEFAULT_NS,
): string[] {
  const out: string[] = [];
  const flags = scope === 'user' ? [...RESTRICTION_FLAGS, 'disabled' as const] : RESTRICTION_FLAGS;
  for (const f of flags) if (before[f] && !after[f]) out.push(f);
  if (scope === 'server') {
    const key = nsKey(ns, 'enableAdvancedPerms');
    if (attrBool(before.attributes?.[key]) && !attrBool(after.attributes?.[key])) out.push(key);
    return out;
  }
  if (!before.administrator && after.administrator) out.push('administrator');
  for (const f of ['deviceLimit', 'userLimit'] as const) if (limitRaised(before[f], after[f])) out.push(f);
  const was = expiryMs(before.expirationTime);
  const now = expiryMs(after.expirationTime);
  if (was !== null && (now === null || now > was)) out.push('expirationTime');
  const had = effectivePermissionBits(before.attributes as Attributes | null | undefined, ns);
  const gets = effectivePermissionBits(after.attributes as Attributes | null | undefined, ns);
  if (gets.some((on, i) => on && !had[i])) out.push(nsKey(ns, 'advancedPerms'));
  return out;
}
