// Users (SPEC §5 user form and user deletion, §6 roles): who sees which user lists, sub-users, the superior
// administrator (the first administrator), and which user fields an actor may change. Shared by the web users
// screen and the server (POST/PUT/DELETE /api/users, GET /api/session/:id, POST /{ns}/users/:id/suspend).
import { DEFAULT_NS, nsKey } from './attributes.ts';
import {
  PERMISSION_BITS,
  hasPermission,
  isShared,
  parsePermissionString,
  type PermissionContext,
  type UserLike,
} from './permissions.ts';
import type { Attributes, User } from './types.ts';
import { limitGrantAllowed, RESELLER_ATTRIBUTE_NAMES, resellerGrantProblem } from './reseller.ts';
import { USER_BILLING_ATTRIBUTES, USER_BILLING_STATE_ATTRIBUTES } from './userBilling.ts';
import { loginProblem, nameProblem, passwordProblems } from './userForm.ts';

export const PARENT_FIELDS = ['managerId', 'parentId', 'ownerId', 'adminId'] as const;

type UserWithParents = UserLike & Partial<Record<(typeof PARENT_FIELDS)[number], number | null>>;

/** Ids this user names as manager/parent/owner/admin, from fields or attributes. */
export function parentIds(user: UserWithParents): number[] {
  const out = new Set<number>();
  for (const f of PARENT_FIELDS) {
    for (const v of [user[f], user.attributes?.[f]]) {
      const n = typeof v === 'string' ? Number(v) : v;
      if (typeof n === 'number' && Number.isFinite(n) && n > 0) out.add(n);
    }
  }
  return [...out];
}

export function isSubUserOf(user: UserWithParents, parentId: number): boolean {
  return parentIds(user).includes(parentId);
}

/** Normal user list: shared (guest) users are hidden. */
export function visibleUsers<T extends UserLike>(users: readonly T[]): T[] {
  return users.filter((u) => !isShared(u));
}

/** The superior administrator: the first administrator (lowest id with administrator = true); null when none. */
export function superiorAdminId(users: Iterable<UserLike>): number | null {
  let best: number | null = null;
  for (const u of users) {
    if (u.administrator && typeof u.id === 'number' && (best === null || u.id < best)) best = u.id;
  }
  return best;
}

export interface SuperiorOptions {
  /** Id of the superior administrator (superiorAdminId of every user); unknown ⇒ only the other rules apply. */
  superiorId?: number | null;
  /** Ids of the users that manage the actor (managedUser links), besides the parent fields/attributes. */
  actorManagers?: readonly number[];
}

/**
 * Whether the target administrator is "superior" to the actor (SPEC §5 user deletion, §6 superior administrator):
 * never oneself; always for a non-administrator actor; for an administrator actor, the superior administrator
 * (the first one) and any administrator that manages the actor (the actor is its sub-user).
 */
export function isSuperiorAdmin(
  actor: UserWithParents,
  target: UserWithParents,
  o: SuperiorOptions = {},
): boolean {
  if (!target.administrator) return false;
  if (target.id !== undefined && actor.id === target.id) return false;
  if (!actor.administrator) return true;
  if (target.id === undefined) return false;
  if (o.superiorId !== undefined && o.superiorId !== null && target.id === o.superiorId) return true;
  return isSubUserOf(actor, target.id) || !!o.actorManagers?.includes(target.id);
}

export type UserActionDenial = 'validation.cannotDeleteSelf' | 'validation.cannotEditSuperiorAdmin';

/** Null when allowed, else the i18n key of the refusal: nobody deletes itself (admins neither) nor a superior. */
export function userDeleteDenial(
  actor: UserWithParents,
  target: UserWithParents,
  o: SuperiorOptions = {},
): UserActionDenial | null {
  if (actor.id !== undefined && actor.id === target.id) return 'validation.cannotDeleteSelf';
  if (isSuperiorAdmin(actor, target, o)) return 'validation.cannotEditSuperiorAdmin';
  return null;
}

/** Editing, suspending or impersonating a user: refused for a superior administrator (oneself is fine). */
export function userEditDenial(
  actor: UserWithParents,
  target: UserWithParents,
  o: SuperiorOptions = {},
): UserActionDenial | null {
  if (actor.id !== undefined && actor.id === target.id) return null;
  return isSuperiorAdmin(actor, target, o) ? 'validation.cannotEditSuperiorAdmin' : null;
}

/** Why "log in as" (GET /api/session/{id}, SPEC §6) is refused for this target, as an i18n key; null when allowed. */
export type ImpersonationDenial =
  | 'validation.cannotEditSuperiorAdmin'
  | 'validation.loginAsSelf'
  | 'validation.loginAsDisabled'
  | 'validation.loginAsExpired';

/**
 * Logging in as another user: never oneself, never a superior administrator (userEditDenial), never a disabled or
 * expired account (it could not sign in itself). Who may ask at all (administrators, managers over their users) is
 * the access check of the caller; this rule looks only at the pair.
 */
export function impersonationDenial(
  actor: UserWithParents,
  target: UserWithParents & Partial<Pick<User, 'disabled' | 'expirationTime'>>,
  o: SuperiorOptions = {},
  now: number = Date.now(),
): ImpersonationDenial | null {
  if (actor.id !== undefined && actor.id === target.id) return 'validation.loginAsSelf';
  if (userEditDenial(actor, target, o)) return 'validation.cannotEditSuperiorAdmin';
  if (target.disabled) return 'validation.loginAsDisabled';
  const expires = target.expirationTime ? Date.parse(target.expirationTime) : NaN;
  if (Number.isFinite(expires) && expires <= now) return 'validation.loginAsExpired';
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Protected fields: what a non-administrator may change on itself and a manager on its sub-users

/** User fields a non-administrator never changes on itself (administrator and the limits stay admin-only). */
export const PROTECTED_USER_FIELDS = [
  'administrator',
  'readonly',
  'deviceReadonly',
  'limitCommands',
  'disabled',
  'userLimit',
  'deviceLimit',
  'expirationTime',
] as const;
export type ProtectedUserField = (typeof PROTECTED_USER_FIELDS)[number];

/** Role attributes (`{ns}.<name>`) a non-administrator never changes on itself. */
export const PROTECTED_ROLE_ATTRIBUTES = [
  'advancedPerms',
  'isQrDriverId',
  'isQrDeviceId',
  ...RESELLER_ATTRIBUTE_NAMES,
] as const;

/** Restrictions a manager passes down: it cannot leave a sub-user without one it has itself. */
export const INHERITED_RESTRICTIONS = ['readonly', 'deviceReadonly', 'limitCommands'] as const;

/** Billing state marker written by the billing job (automatic suspension). */
export const BILLING_SUSPENDED_AUTO = 'suspendedAuto';

/** Billing settings and server-written state (`{ns}.<name>`): only administrators change them. */
export const USER_BILLING_ATTRIBUTE_NAMES: readonly string[] = [
  ...Object.values(USER_BILLING_ATTRIBUTES),
  ...Object.values(USER_BILLING_STATE_ATTRIBUTES),
  BILLING_SUSPENDED_AUTO,
];

export const roleAttributeKeys = (ns: string = DEFAULT_NS): string[] =>
  PROTECTED_ROLE_ATTRIBUTES.map((a) => nsKey(ns, a));
export const billingAttributeKeys = (ns: string = DEFAULT_NS): string[] =>
  USER_BILLING_ATTRIBUTE_NAMES.map((a) => nsKey(ns, a));

/** A user as far as these rules look at it. */
export type RuleUser = UserLike & Partial<Pick<User, 'disabled' | 'expirationTime'>>;

const LIMIT_FIELDS: readonly ProtectedUserField[] = ['userLimit', 'deviceLimit'];

function fieldValue(u: RuleUser | null, f: ProtectedUserField): boolean | number | null {
  if (f === 'expirationTime') {
    const ms = u?.expirationTime ? Date.parse(u.expirationTime) : NaN;
    return Number.isFinite(ms) ? ms : null;
  }
  if (LIMIT_FIELDS.includes(f)) return (u?.[f as 'userLimit'] as number | undefined) ?? 0;
  return !!u?.[f as 'readonly'];
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Bits a user effectively holds by its own string: none when malformed, every bit when it has none (rule 5). */
export function effectivePermissionBits(attributes: Attributes | null | undefined, ns: string): boolean[] {
  const value = attributes?.[nsKey(ns, 'advancedPerms')];
  const bits = parsePermissionString(value);
  if (bits) return bits;
  const malformed = typeof value === 'string' && value.trim() !== '';
  return new Array<boolean>(PERMISSION_BITS).fill(!malformed);
}

export interface UserChangeContext {
  /** Who writes (user, server attributes, Plus): decides the rules and the advanced permission bits. */
  actor: PermissionContext;
  /** Whether the target is the actor itself, or a new user the actor registers for itself (no manager). */
  self: boolean;
}

/**
 * Names of the protected fields the actor may not change from `before` (null = a new user) to `after`: field names
 * of PROTECTED_USER_FIELDS or attribute keys (`{ns}.advancedPerms`); empty = allowed.
 * - Administrators: none here (userEditDenial decides about a superior administrator).
 * - Oneself (and self-registration): no PROTECTED_USER_FIELDS, no role attribute. A role attribute absent from
 *   `after` is not a change (restoreAttributes keeps the stored one); any other value is.
 * - A manager on a sub-user: administrator and the limits stay as they are (a reseller gives limits within its
 *   own, and only a reseller that can create resellers changes reseller settings: reseller.ts); it cannot leave the sub-user without
 *   readonly / deviceReadonly / limitCommands it has itself; it cannot give advanced permission bits it lacks
 *   (a sub-user without a string holds every bit, so a restricted manager must give it a string).
 */
export function protectedUserChanges(
  before: RuleUser | null,
  after: RuleUser,
  c: UserChangeContext,
): string[] {
  const actor = c.actor.user;
  if (actor?.administrator) return [];
  const ns = c.actor.ns ?? DEFAULT_NS;
  const out: string[] = [];
  if (c.self) {
    for (const f of PROTECTED_USER_FIELDS) {
      if (fieldValue(before, f) !== fieldValue(after, f)) out.push(f);
    }
    for (const key of roleAttributeKeys(ns)) {
      const a = after.attributes ?? {};
      if (key in a && !sameValue(before?.attributes?.[key], a[key])) out.push(key);
    }
    return out;
  }
  for (const f of ['administrator', ...LIMIT_FIELDS] as const) {
    const value = fieldValue(after, f);
    if (fieldValue(before, f) === value) continue;
    // a reseller gives limits within its own (reseller.ts); everyone else leaves them as they are
    if (f !== 'administrator' && limitGrantAllowed(actor, f as 'userLimit', value as number, ns)) continue;
    out.push(f);
  }
  if (resellerGrantProblem(actor, before?.attributes, after.attributes, ns)) out.push(nsKey(ns, 'reseller'));
  for (const f of INHERITED_RESTRICTIONS) {
    if (actor?.[f] && !after[f] && (before === null || !!before[f])) out.push(f);
  }
  const had = before
    ? effectivePermissionBits(before.attributes, ns)
    : new Array<boolean>(PERMISSION_BITS).fill(false);
  const gets = effectivePermissionBits(after.attributes, ns);
  if (gets.some((on, i) => on && !had[i] && !hasPermission(c.actor, i))) out.push(nsKey(ns, 'advancedPerms'));
  return out;
}

/** `after` with each of `keys` as stored in `before` (removed when `before` has none). */
export function restoreAttributes(
  before: Attributes | null | undefined,
  after: Attributes,
  keys: readonly string[],
): Attributes {
  const out: Attributes = { ...after };
  for (const key of keys) {
    if (before && key in before) out[key] = before[key];
    else delete out[key];
  }
  return out;
}

/** Values a manager's new user starts with so that it does not exceed the manager (INHERITED_RESTRICTIONS, bits). */
export function inheritedUserDefaults(
  actor: RuleUser | null | undefined,
  ns: string = DEFAULT_NS,
): { readonly: boolean; deviceReadonly: boolean; limitCommands: boolean; advancedPerms: string } {
  const perms = actor?.attributes?.[nsKey(ns, 'advancedPerms')];
  const bits = parsePermissionString(perms);
  return {
    readonly: !!actor?.readonly,
    deviceReadonly: !!actor?.deviceReadonly,
    limitCommands: !!actor?.limitCommands,
    advancedPerms: bits && typeof perms === 'string' ? perms.replace(/[\s\-:.]/g, '').toLowerCase() : '',
  };
}

// ---------------------------------------------------------------------------------------------------------------
// SPEC §5 user form minimums, checked by the server too

export interface UserFieldProblem {
  field: 'name' | 'email' | 'password';
  key: string;
}

/**
 * The SPEC §5 user-form numbers for a user written through the API by an administrator or a manager: name ≥ 3,
 * username/e-mail ≥ 4, password ≥ 4 (required on create). On an edit (`before` given) name and e-mail are checked
 * only when they change and the password only when one is sent. The e-mail format is the form's concern only:
 * Traccar logins need not be addresses.
 */
export function userFieldProblem(
  after: { name: string; email: string; password?: string | null },
  before: { name: string; email: string } | null,
): UserFieldProblem | null {
  if (!before || before.name !== after.name) {
    const key = nameProblem(after.name);
    if (key) return { field: 'name', key };
  }
  if (!before || before.email.toLowerCase() !== after.email.toLowerCase()) {
    const key = loginProblem(after.email);
    if (key && key !== 'validation.emailInvalid') return { field: 'email', key };
  }
  const pw = after.password ?? '';
  const key = passwordProblems(pw, pw, !before).password;
  if (key) return { field: 'password', key };
  return null;
}
