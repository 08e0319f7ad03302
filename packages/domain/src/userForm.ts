// The user edit form (SPEC §3 User, §5 user form, §6 who may set what), the advanced-permission matrix
// (area × action ⇄ the 32-hex-character {ns}.advancedPerms string) and the rules of the user Excel import.
// Error values are i18n keys: 'validation.*' live in the common namespace (messages.ts), 'users:errors.*' in the
// web's users namespace.
import { z } from 'zod';
import { DEFAULT_NS, attrBool, nsKey } from './attributes.ts';
import { COORDINATE_FORMATS, type CoordinateFormat } from './format.ts';
import { SUPPORTED_LOCALES, type SupportedLocale } from './locale.ts';
import {
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  PERMISSION_BITS,
  formatPermissionString,
  hasPermission,
  isValidPermissionString,
  parsePermissionString,
  permissionIndex,
  type PermissionAction,
  type PermissionArea,
  type PermissionContext,
} from './permissions.ts';
import {
  applyReseller,
  isReseller,
  limitGrantAllowed,
  readReseller,
  resellerDomainProblem,
  resellerGrantProblem,
} from './reseller.ts';
import type { Attributes, User } from './types.ts';

// ---------------------------------------------------------------------------------------------------------------
// Advanced permission matrix

export type PermissionMatrix = Record<PermissionArea, Partial<Record<PermissionAction, boolean>>>;

export interface PermissionCell {
  area: PermissionArea;
  action: PermissionAction;
  bit: number;
}

/** Every area × action that has a bit, in display order (areas, then actions). */
export const PERMISSION_CELLS: readonly PermissionCell[] = PERMISSION_AREAS.flatMap((area) =>
  PERMISSION_ACTIONS.flatMap((action) => {
    const bit = permissionIndex(area, action);
    return bit === undefined ? [] : [{ area, action, bit }];
  }),
);

/** The matrix of a permission string; an empty or malformed string gives every cell false. */
export function decodePermissionMatrix(value: unknown): PermissionMatrix {
  const bits = parsePermissionString(value) ?? new Array<boolean>(PERMISSION_BITS).fill(false);
  const out = {} as PermissionMatrix;
  for (const area of PERMISSION_AREAS) out[area] = {};
  for (const c of PERMISSION_CELLS) out[c.area][c.action] = bits[c.bit];
  return out;
}

/**
 * Packs a matrix into the canonical 32 lower-case hex characters. Bits outside the matrix (reserved ones) are
 * kept from `base` so that a string written by another tool survives an edit.
 */
export function encodePermissionMatrix(matrix: Partial<PermissionMatrix>, base?: unknown): string {
  const bits = parsePermissionString(base) ?? new Array<boolean>(PERMISSION_BITS).fill(false);
  for (const c of PERMISSION_CELLS) bits[c.bit] = !!matrix[c.area]?.[c.action];
  return formatPermissionString(bits);
}

/** Bits set in `target` that the actor does not hold himself (a manager cannot give more than he has). */
export function permissionsBeyond(actor: PermissionContext, target: unknown): number[] {
  if (actor.user?.administrator) return [];
  const bits = parsePermissionString(target);
  if (!bits) return [];
  const out: number[] = [];
  bits.forEach((on, i) => {
    if (on && !hasPermission(actor, i)) out.push(i);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Form values

export const USER_ADDRESS_FIELDS = [
  'zip',
  'street',
  'number',
  'complement',
  'district',
  'city',
  'state',
  'personalPhone',
  'commercialPhone',
  'whatsapp',
  'contactEmail',
] as const;
export type UserAddressField = (typeof USER_ADDRESS_FIELDS)[number];

/** Attribute name of an address/contact field: `{ns}.<field>`, e.g. 'rastro.zip'. */
export const userAddressKey = (ns: string, field: UserAddressField) => nsKey(ns, field);

export const USER_MAX_ZOOM = 22;

/** The form as typed: numbers are strings, so a half-typed value is kept until submit. */
export interface UserFormValues {
  id: number;
  // account
  name: string;
  email: string;
  phone: string;
  password: string;
  confirmPassword: string;
  // preferences
  language: '' | SupportedLocale;
  map: string;
  latitude: string;
  longitude: string;
  zoom: string;
  twelveHourFormat: boolean;
  coordinateFormat: '' | CoordinateFormat;
  // permissions
  administrator: boolean;
  disabled: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  limitCommands: boolean;
  deviceLimit: string;
  userLimit: string;
  /** YYYY-MM-DD or empty (never expires). */
  expirationTime: string;
  /** 32 hex characters, or empty for none (the user then follows SPEC §6 rule 5). */
  advancedPerms: string;
  // reseller (reseller.ts)
  reseller: boolean;
  resellerDomain: string;
  resellerCanCreate: boolean;
  // address and contacts
  address: Record<UserAddressField, string>;
}

const emptyAddress = () =>
  Object.fromEntries(USER_ADDRESS_FIELDS.map((f) => [f, ''])) as Record<UserAddressField, string>;

/**
 * A new user. An administrator's new users default to unlimited devices (-1); a manager cannot set limits, so
 * his new users keep Traccar's 0.
 */
export function emptyUserForm(actorIsAdmin = false): UserFormValues {
  return {
    id: 0,
    name: '',
    email: '',
    phone: '',
    password: '',
    confirmPassword: '',
    language: '',
    map: '',
    latitude: '',
    longitude: '',
    zoom: '',
    twelveHourFormat: false,
    coordinateFormat: '',
    administrator: false,
    disabled: false,
    readonly: false,
    deviceReadonly: false,
    limitCommands: false,
    deviceLimit: actorIsAdmin ? '-1' : '0',
    userLimit: '0',
    expirationTime: '',
    advancedPerms: '',
    reseller: false,
    resellerDomain: '',
    resellerCanCreate: false,
    address: emptyAddress(),
  };
}

const numText = (n: number | null | undefined) =>
  typeof n === 'number' && Number.isFinite(n) && n !== 0 ? String(n) : '';
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export function userToForm(user: User, ns: string = DEFAULT_NS): UserFormValues {
  const a = user.attributes ?? {};
  const lang = str(a[nsKey(ns, 'lang')]);
  const fmt = user.coordinateFormat ?? '';
  const address = emptyAddress();
  for (const f of USER_ADDRESS_FIELDS) address[f] = str(a[userAddressKey(ns, f)]);
  const perms = a[nsKey(ns, 'advancedPerms')];
  const reseller = readReseller(a, ns);
  return {
    id: user.id,
    name: user.name ?? '',
    email: user.email ?? '',
    phone: user.phone ?? '',
    password: '',
    confirmPassword: '',
    language: (SUPPORTED_LOCALES as readonly string[]).includes(lang) ? (lang as SupportedLocale) : '',
    map: user.map ?? '',
    latitude: numText(user.latitude),
    longitude: numText(user.longitude),
    zoom: numText(user.zoom),
    twelveHourFormat: attrBool(a.twelveHourFormat),
    coordinateFormat: (COORDINATE_FORMATS as readonly string[]).includes(fmt)
      ? (fmt as CoordinateFormat)
      : '',
    administrator: !!user.administrator,
    disabled: !!user.disabled,
    readonly: !!user.readonly,
    deviceReadonly: !!user.deviceReadonly,
    limitCommands: !!user.limitCommands,
    deviceLimit: String(user.deviceLimit ?? 0),
    userLimit: String(user.userLimit ?? 0),
    expirationTime: user.expirationTime ? user.expirationTime.slice(0, 10) : '',
    advancedPerms: isValidPermissionString(perms) ? perms.replace(/[\s\-:.]/g, '').toLowerCase() : '',
    reseller: reseller.enabled,
    resellerDomain: reseller.domain,
    resellerCanCreate: reseller.canCreate,
    address,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Field rules (shared by the form and the Excel import)

const emailFormat = z.email();

/** Name: required (first and last name), at least 3 characters, at most 128. */
export function nameProblem(value: string): string | null {
  const v = value.trim();
  if (!v) return 'validation.nameRequired';
  if (v.length < 3) return 'validation.nameMinLength';
  if (v.length > 128) return 'validation.tooLong';
  return null;
}

/** Username or e-mail: required, at least 4 characters; a value with '@' must be a valid e-mail address. */
export function loginProblem(value: string): string | null {
  const v = value.trim();
  if (!v) return 'validation.emailRequired';
  if (v.length < 4) return 'validation.emailMinLength';
  if (v.length > 256) return 'validation.tooLong';
  if (v.includes('@') && !emailFormat.safeParse(v).success) return 'validation.emailInvalid';
  return null;
}

export function phoneProblem(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  if (v.length > 40) return 'validation.tooLong';
  return /^[+\d\s().-]+$/.test(v) ? null : 'users:errors.phoneInvalid';
}

/** Password with confirmation. On edit an empty pair keeps the stored password. */
export function passwordProblems(
  password: string,
  confirmation: string,
  required: boolean,
): { password?: string; confirmPassword?: string } {
  if (password === '') {
    if (required) return { password: 'validation.passwordRequired' };
    return confirmation !== '' ? { confirmPassword: 'validation.passwordMismatch' } : {};
  }
  if (password.length < 4) return { password: 'validation.passwordMinLength' };
  if (password.length > 256) return { password: 'validation.tooLong' };
  if (password !== confirmation) return { confirmPassword: 'validation.passwordMismatch' };
  return {};
}

function parseNumber(text: string): number | null | undefined {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** deviceLimit / userLimit: an integer, -1 (unlimited) or more. */
export function parseLimit(text: string): number | undefined {
  const n = parseNumber(text);
  if (n === null) return 0;
  return n !== undefined && Number.isInteger(n) && n >= -1 ? n : undefined;
}

/** YYYY-MM-DD ⇒ ISO instant at 00:00 UTC; empty ⇒ null; undefined when not a date. */
export function parseExpiration(text: string): string | null | undefined {
  const t = text.trim();
  if (!t) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(t)) return undefined;
  const ms = Date.parse(`${t}T00:00:00.000Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== t) return undefined;
  return new Date(ms).toISOString();
}

// ---------------------------------------------------------------------------------------------------------------
// Parse

export interface UserFormOptions {
  /** 'create' requires a password; 'edit' keeps the stored one when both fields are empty. */
  mode: 'create' | 'edit';
  /** The stored user (edit): unknown fields and attributes are kept (PUT is a full replacement). */
  base?: User | null;
  ns?: string;
  /** Who saves: decides which permission fields may change (SPEC §6). */
  actor: PermissionContext;
  /** Whether the permission tab is part of this form (admins/managers editing someone else). */
  permissions: boolean;
  /** The actor's own expirationTime (a manager cannot give a later one, nor none when he has one). */
  actorExpiration?: string | null;
}

export type UserFormResult =
  | { ok: true; user: Partial<User> & { id: number; name: string; email: string; attributes: Attributes } }
  | { ok: false; errors: Record<string, string> };

/**
 * Validates the form (SPEC §5: name ≥ 3, username/e-mail ≥ 4 and a valid address when it has '@', password ≥ 4
 * with confirmation; latitude −90…90, longitude −180…180, zoom 0…22, limits integers ≥ −1, expiry a date,
 * advancedPerms 32 hex characters) and the role rules of SPEC §6 / CONTRACT §6: only an administrator grants
 * administrator or changes deviceLimit/userLimit; a manager cannot give an expiry later than his own nor
 * permission bits he does not hold. Returns the full Traccar user body for PUT/POST.
 */
export function parseUserForm(v: UserFormValues, o: UserFormOptions): UserFormResult {
  const ns = o.ns ?? DEFAULT_NS;
  const base = o.base ?? null;
  const errors: Record<string, string> = {};
  const put = (k: string, e: string | null | undefined) => {
    if (e && !errors[k]) errors[k] = e;
  };
  put('name', nameProblem(v.name));
  put('email', loginProblem(v.email));
  put('phone', phoneProblem(v.phone));
  const pw = passwordProblems(v.password, v.confirmPassword, o.mode === 'create');
  put('password', pw.password);
  put('confirmPassword', pw.confirmPassword);

  // preferences
  const lat = parseNumber(v.latitude);
  const lon = parseNumber(v.longitude);
  const zoom = parseNumber(v.zoom);
  if (lat === undefined || (lat !== null && (lat < -90 || lat > 90)))
    put('latitude', 'users:errors.latitude');
  if (lon === undefined || (lon !== null && (lon < -180 || lon > 180)))
    put('longitude', 'users:errors.longitude');
  if (zoom === undefined || (zoom !== null && (!Number.isInteger(zoom) || zoom < 0 || zoom > USER_MAX_ZOOM)))
    put('zoom', 'users:errors.zoom');
  if (v.language && !(SUPPORTED_LOCALES as readonly string[]).includes(v.language))
    put('language', 'validation.invalidOption');
  if (v.coordinateFormat && !(COORDINATE_FORMATS as readonly string[]).includes(v.coordinateFormat))
    put('coordinateFormat', 'validation.invalidOption');
  if (v.map.length > 128) put('map', 'validation.tooLong');

  // address and contacts
  for (const f of USER_ADDRESS_FIELDS) {
    const t = v.address[f]?.trim() ?? '';
    if (t.length > 255) put(`address.${f}`, 'validation.tooLong');
    else if (f === 'contactEmail' && t && !emailFormat.safeParse(t).success)
      put(`address.${f}`, 'validation.emailInvalid');
    else if ((f === 'personalPhone' || f === 'commercialPhone' || f === 'whatsapp') && t)
      put(`address.${f}`, phoneProblem(t));
  }

  // permissions: values come from the form when the tab is shown, else from the stored user (or defaults)
  const actorAdmin = !!o.actor.user?.administrator;
  const stored = base ?? null;
  const flags = o.permissions
    ? {
        administrator: v.administrator,
        disabled: v.disabled,
        readonly: v.readonly,
        deviceReadonly: v.deviceReadonly,
        limitCommands: v.limitCommands,
      }
    : {
        administrator: !!stored?.administrator,
        disabled: !!stored?.disabled,
        readonly: !!stored?.readonly,
        deviceReadonly: !!stored?.deviceReadonly,
        limitCommands: !!stored?.limitCommands,
      };
  let deviceLimit = stored?.deviceLimit ?? (actorAdmin ? -1 : 0);
  let userLimit = stored?.userLimit ?? 0;
  let expirationTime: string | null = stored?.expirationTime ?? null;
  const permsKey = nsKey(ns, 'advancedPerms');
  let advancedPerms: string | null = (() => {
    const s = stored?.attributes?.[permsKey];
    return typeof s === 'string' && s.trim() ? s : null;
  })();
  if (o.permissions) {
    const dl = parseLimit(v.deviceLimit);
    const ul = parseLimit(v.userLimit);
    if (dl === undefined) put('deviceLimit', 'users:errors.limit');
    else deviceLimit = dl;
    if (ul === undefined) put('userLimit', 'users:errors.limit');
    else userLimit = ul;
    const exp = parseExpiration(v.expirationTime);
    if (exp === undefined) put('expirationTime', 'validation.invalidDate');
    else expirationTime = exp;
    const p = v.advancedPerms.trim();
    if (p && !isValidPermissionString(p)) put('advancedPerms', 'validation.invalidPermissionString');
    else advancedPerms = p ? p.replace(/[\s\-:.]/g, '').toLowerCase() : null;

    if (!actorAdmin) {
      if (flags.administrator !== !!stored?.administrator) put('administrator', 'users:errors.adminOnly');
      // a reseller gives limits within its own; other managers leave them (reseller.ts)
      const limitKey = isReseller(o.actor.user, ns) ? 'validation.limitBeyondOwn' : 'users:errors.adminOnly';
      if (
        dl !== undefined &&
        dl !== (stored?.deviceLimit ?? 0) &&
        !limitGrantAllowed(o.actor.user, 'deviceLimit', dl, ns)
      )
        put('deviceLimit', limitKey);
      if (
        ul !== undefined &&
        ul !== (stored?.userLimit ?? 0) &&
        !limitGrantAllowed(o.actor.user, 'userLimit', ul, ns)
      )
        put('userLimit', limitKey);
      const ownMs = o.actorExpiration ? Date.parse(o.actorExpiration) : NaN;
      if (exp !== undefined && Number.isFinite(ownMs) && (exp === null || Date.parse(exp) > ownMs))
        put('expirationTime', 'users:errors.expirationBeyondOwn');
      if (advancedPerms && permissionsBeyond(o.actor, advancedPerms).length > 0)
        put('advancedPerms', 'users:errors.permsBeyondOwn');
    }
  }
  const reseller = o.permissions
    ? { enabled: v.reseller, domain: v.resellerDomain.trim().toLowerCase(), canCreate: v.resellerCanCreate }
    : readReseller(stored?.attributes, ns);
  if (o.permissions) {
    put('resellerDomain', resellerDomainProblem(reseller.domain));
    if (reseller.enabled && userLimit === 0) put('userLimit', 'validation.resellerNeedsUserLimit');
    const withReseller = applyReseller(stored?.attributes ?? {}, reseller, ns);
    put('reseller', resellerGrantProblem(o.actor.user, stored?.attributes, withReseller, ns));
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  const attributes: Attributes = applyReseller({ ...(stored?.attributes ?? {}) }, reseller, ns);
  const setAttr = (k: string, val: string | boolean | null) => {
    if (val === null || val === '' || val === false) delete attributes[k];
    else attributes[k] = val;
  };
  setAttr(nsKey(ns, 'lang'), v.language || null);
  setAttr('twelveHourFormat', v.twelveHourFormat);
  for (const f of USER_ADDRESS_FIELDS) setAttr(userAddressKey(ns, f), v.address[f]?.trim() || null);
  setAttr(permsKey, advancedPerms);

  const user = {
    ...(stored ?? {}),
    id: o.mode === 'edit' ? (stored?.id ?? v.id) : 0,
    name: v.name.trim(),
    email: v.email.trim(),
    phone: v.phone.trim() || null,
    password: v.password === '' ? null : v.password,
    map: v.map.trim() || null,
    latitude: lat ?? 0,
    longitude: lon ?? 0,
    zoom: zoom ?? 0,
    coordinateFormat: v.coordinateFormat || null,
    ...flags,
    deviceLimit,
    userLimit,
    expirationTime,
    attributes,
  };
  return { ok: true, user };
}
