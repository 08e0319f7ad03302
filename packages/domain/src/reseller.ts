// Resellers (SPEC §3 user "Reseller: domain, limit, can create resellers", §6 roles). A reseller is a manager
// (userLimit ≠ 0) whose `{ns}.reseller` attribute is on. It manages its whole subtree (the users it created, the
// users they created, …), not only its direct sub-users; its userLimit and deviceLimit, when above 0, count that
// whole subtree (-1 unlimited, 0 none, n at most n); `{ns}.resellerDomain` selects its branding on the login page; `{ns}.resellerCanCreate` lets it make
// sub-resellers and give sub-users limits of their own (never more than it has). Used by the user form and, with
// the same functions, by the server (POST/PUT /api/users, POST /api/devices, the branding file by host name).
import { attrBool, DEFAULT_NS, nsKey } from './attributes.ts';
import type { Attributes } from './types.ts';

export const RESELLER_ATTRIBUTE_NAMES = ['reseller', 'resellerDomain', 'resellerCanCreate'] as const;
export const resellerAttributeKeys = (ns: string = DEFAULT_NS): string[] =>
  RESELLER_ATTRIBUTE_NAMES.map((a) => nsKey(ns, a));

/** How deep a reseller's subtree is followed (and ancestors looked up); cycles stop earlier. */
export const RESELLER_MAX_DEPTH = 10;
export const RESELLER_DOMAIN_MAX = 253;

export interface ResellerSettings {
  enabled: boolean;
  /** Lower-case host name, '' for none. */
  domain: string;
  canCreate: boolean;
}

interface LimitedUser {
  administrator?: boolean | null;
  userLimit?: number | null;
  deviceLimit?: number | null;
  attributes?: Attributes | null;
}

export function readReseller(
  attributes: Attributes | null | undefined,
  ns: string = DEFAULT_NS,
): ResellerSettings {
  const a = attributes ?? {};
  const domain = a[nsKey(ns, 'resellerDomain')];
  return {
    enabled: attrBool(a[nsKey(ns, 'reseller')]),
    domain: typeof domain === 'string' ? domain.trim().toLowerCase() : '',
    canCreate: attrBool(a[nsKey(ns, 'resellerCanCreate')]),
  };
}

/** `attributes` with the reseller settings written (keys removed when off or empty). */
export function applyReseller(
  attributes: Attributes,
  s: ResellerSettings,
  ns: string = DEFAULT_NS,
): Attributes {
  const out: Attributes = { ...attributes };
  for (const k of resellerAttributeKeys(ns)) delete out[k];
  if (!s.enabled) return out;
  out[nsKey(ns, 'reseller')] = true;
  if (s.domain.trim()) out[nsKey(ns, 'resellerDomain')] = s.domain.trim().toLowerCase();
  if (s.canCreate) out[nsKey(ns, 'resellerCanCreate')] = true;
  return out;
}

/** A reseller: the attribute on and a manager (userLimit ≠ 0); administrators are not resellers. */
export function isReseller(user: LimitedUser | null | undefined, ns: string = DEFAULT_NS): boolean {
  if (!user || user.administrator) return false;
  return (user.userLimit ?? 0) !== 0 && readReseller(user.attributes, ns).enabled;
}

export function canCreateResellers(user: LimitedUser | null | undefined, ns: string = DEFAULT_NS): boolean {
  return isReseller(user, ns) && readReseller(user!.attributes, ns).canCreate;
}

/** A reseller's domain ('' for anyone else, or a reseller without one). */
export function resellerDomainOf(user: LimitedUser | null | undefined, ns: string = DEFAULT_NS): string {
  return isReseller(user, ns) ? readReseller(user!.attributes, ns).domain : '';
}

/**
 * A request's host name as a reseller domain: lower case, without port or trailing dot; '' when it is not a host
 * name (IPv6 literals and anything with other characters never select a reseller).
 */
export function normalizeHost(host: string | null | undefined): string {
  if (!host) return '';
  const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return resellerDomainProblem(name) ? '' : name;
}

/** Null when `domain` is a host name (RFC 1123 labels, ≤ 253 characters; '' = none), else the i18n key. */
export function resellerDomainProblem(domain: string): string | null {
  const d = domain.trim().toLowerCase();
  if (d === '') return null;
  if (d.length > RESELLER_DOMAIN_MAX) return 'validation.resellerDomain';
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (!d.split('.').every((l) => label.test(l))) return 'validation.resellerDomain';
  if (/^[0-9.]+$/.test(d)) return 'validation.resellerDomain';
  return null;
}

/** Whether a limit value `value` fits inside the actor's own limit `own` (-1 = unlimited, 0 = none). */
export function limitWithin(own: number, value: number): boolean {
  if (own === -1) return Number.isInteger(value) && value >= -1;
  return Number.isInteger(value) && value >= 0 && value <= Math.max(own, 0);
}

/**
 * Whether a non-administrator actor may set a sub-user's `field` to `value`: only a reseller, within its own
 * limit; a sub-user's userLimit (which makes it a manager) needs "can create resellers".
 */
export function limitGrantAllowed(
  actor: LimitedUser | null | undefined,
  field: 'deviceLimit' | 'userLimit',
  value: number,
  ns: string = DEFAULT_NS,
): boolean {
  if (actor?.administrator) return true;
  if (!isReseller(actor, ns)) return false;
  if (field === 'userLimit' && !canCreateResellers(actor, ns)) return false;
  return limitWithin(actor![field] ?? 0, value);
}

const sameSettings = (a: ResellerSettings, b: ResellerSettings) =>
  a.enabled === b.enabled && (!a.enabled || (a.domain === b.domain && a.canCreate === b.canCreate));

/**
 * The i18n key of why a non-administrator actor may not change a sub-user's reseller settings from `before` to
 * `after` (null = allowed): only a reseller that can create resellers makes, changes or removes one.
 */
export function resellerGrantProblem(
  actor: LimitedUser | null | undefined,
  before: Attributes | null | undefined,
  after: Attributes | null | undefined,
  ns: string = DEFAULT_NS,
): string | null {
  if (actor?.administrator) return null;
  if (sameSettings(readReseller(before, ns), readReseller(after, ns))) return null;
  return canCreateResellers(actor, ns) ? null : 'validation.resellerCreateDenied';
}

/** A reseller's cap on its subtree (Traccar's meanings: -1 unlimited, 0 none, n at most n): whether it is reached. */
export const subtreeLimitReached = (limit: number | null | undefined, count: number): boolean =>
  (limit ?? 0) !== -1 && count >= Math.max(limit ?? 0, 0);
