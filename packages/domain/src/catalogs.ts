// Catalog forms (SPEC §3 Group, Driver, Maintenance; §5 saves and deletes): the group tree and its parent choices,
// the key/value attribute editor, the driver form (extra fields kept in attributes) and the maintenance form with
// unit conversion (Traccar stores metres for totalDistance and milliseconds for hours). Error values are keys of
// the web's catalog namespaces ('errors.*').
import { z } from 'zod';
import type { Attributes, Driver, Group, Maintenance } from './types.ts';
import { convertDistance, distanceToMeters, hoursToMs, msToHours, type DistanceUnit } from './units.ts';

// ---------------------------------------------------------------------------------------------------------------
// Groups

export interface GroupRow {
  group: Group;
  depth: number;
  /** True when the group has children among the given groups. */
  hasChildren: boolean;
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || 0;

/**
 * Groups in tree order (parents before children, siblings by name) with their depth. A group whose parent is not
 * in the list (not visible, or 0) is a root; groups caught in a parent cycle are shown as roots once.
 */
export function groupTree(groups: readonly Group[]): GroupRow[] {
  const ids = new Set(groups.map((g) => g.id));
  const children = new Map<number, Group[]>();
  for (const g of groups) {
    const parent = g.groupId && ids.has(g.groupId) && g.groupId !== g.id ? g.groupId : 0;
    const list = children.get(parent) ?? [];
    list.push(g);
    children.set(parent, list);
  }
  const out: GroupRow[] = [];
  const seen = new Set<number>();
  const walk = (parent: number, depth: number) => {
    for (const g of [...(children.get(parent) ?? [])].sort(byName)) {
      if (seen.has(g.id)) continue;
      seen.add(g.id);
      out.push({ group: g, depth, hasChildren: (children.get(g.id)?.length ?? 0) > 0 });
      walk(g.id, depth + 1);
    }
  };
  walk(0, 0);
  // cycles: never reached from a root
  for (const g of [...groups].sort(byName)) {
    if (seen.has(g.id)) continue;
    seen.add(g.id);
    out.push({ group: g, depth: 0, hasChildren: (children.get(g.id)?.length ?? 0) > 0 });
    walk(g.id, 1);
  }
  return out;
}

/** Ids of every descendant of `id` (children, grandchildren, …), not including `id`. */
export function groupDescendants(groups: readonly Group[], id: number): Set<number> {
  const out = new Set<number>();
  let frontier = [id];
  while (frontier.length) {
    const next: number[] = [];
    for (const g of groups)
      if (frontier.includes(g.groupId) && g.id !== id && !out.has(g.id)) {
        out.add(g.id);
        next.push(g.id);
      }
    frontier = next;
  }
  return out;
}

/** Groups that may be the parent of group `selfId` (0 = a new group): all but itself and its descendants. */
export function groupParentOptions(groups: readonly Group[], selfId: number): GroupRow[] {
  const banned = selfId > 0 ? groupDescendants(groups, selfId) : new Set<number>();
  if (selfId > 0) banned.add(selfId);
  return groupTree(groups).filter((r) => !banned.has(r.group.id));
}

/** Tree rows whose name matches `query` (case- and accent-insensitive), with their ancestors for context. */
export function filterGroupTree(rows: readonly GroupRow[], query: string): GroupRow[] {
  const q = foldText(query.trim());
  if (!q) return [...rows];
  const byId = new Map(rows.map((r) => [r.group.id, r]));
  const keep = new Set<number>();
  for (const r of rows) {
    if (!foldText(r.group.name).includes(q)) continue;
    let g: Group | undefined = r.group;
    const guard = new Set<number>();
    while (g && !guard.has(g.id)) {
      guard.add(g.id);
      keep.add(g.id);
      g = g.groupId ? byId.get(g.groupId)?.group : undefined;
    }
  }
  return rows.filter((r) => keep.has(r.group.id));
}

/** Lower case without accents, for searches. */
export function foldText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------------
// Key/value attribute editor

export interface AttributeRow {
  key: string;
  value: string;
}

/** Rows of an attributes object; objects and arrays are shown as JSON. */
export function attributesToRows(
  attrs: Attributes | null | undefined,
  hidden: readonly string[] = [],
): AttributeRow[] {
  return Object.entries(attrs ?? {})
    .filter(([k]) => !hidden.includes(k))
    .map(([key, v]) => ({
      key,
      value: v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v),
    }));
}

/** A typed text as an attribute value: true/false ⇒ boolean, plain numbers (no leading zeros) ⇒ number. */
export function attributeValue(text: string): string | number | boolean {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(t)) return Number(t);
  return text;
}

export type AttributeRowError = 'errors.keyRequired' | 'errors.keyDuplicate';

/** Rows ⇒ attributes, or the error of each bad row (by index). Fully empty rows are ignored. */
export function rowsToAttributes(
  rows: readonly AttributeRow[],
): { ok: true; attributes: Attributes } | { ok: false; errors: Record<number, AttributeRowError> } {
  const attributes: Attributes = {};
  const errors: Record<number, AttributeRowError> = {};
  rows.forEach((r, i) => {
    const key = r.key.trim();
    if (!key && !r.value.trim()) return;
    if (!key) errors[i] = 'errors.keyRequired';
    else if (key in attributes) errors[i] = 'errors.keyDuplicate';
    else attributes[key] = attributeValue(r.value);
  });
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, attributes };
}

// ---------------------------------------------------------------------------------------------------------------
// Group form

export interface GroupFormValues {
  id: number;
  name: string;
  groupId: number;
  attributes: AttributeRow[];
}

export const emptyGroupForm = (): GroupFormValues => ({ id: 0, name: '', groupId: 0, attributes: [] });

export const groupToForm = (g: Group): GroupFormValues => ({
  id: g.id,
  name: g.name,
  groupId: g.groupId ?? 0,
  attributes: attributesToRows(g.attributes),
});

export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

const nameSchema = z.string().trim().min(1, 'errors.nameRequired').max(128, 'errors.tooLong');

/** Group form ⇒ Group body; `groups` are the visible groups (the parent must not be itself or a descendant). */
export function parseGroupForm(v: GroupFormValues, groups: readonly Group[]): FormResult<Group> {
  const errors: Record<string, string> = {};
  const name = nameSchema.safeParse(v.name);
  if (!name.success) errors.name = name.error.issues[0].message;
  if (v.groupId && (v.groupId === v.id || (v.id > 0 && groupDescendants(groups, v.id).has(v.groupId))))
    errors.groupId = 'errors.parentCycle';
  const attrs = rowsToAttributes(v.attributes);
  if (!attrs.ok) for (const [i, e] of Object.entries(attrs.errors)) errors[`attributes.${i}`] = e;
  if (Object.keys(errors).length || !name.success || !attrs.ok) return { ok: false, errors };
  return {
    ok: true,
    value: { id: v.id, name: name.data, groupId: v.groupId || 0, attributes: attrs.attributes },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Driver form

/** Driver attributes edited as fields (SPEC §3 Driver); other attributes stay in the key/value editor. */
export const DRIVER_FIELDS = [
  'licenseNumber',
  'licenseCategory',
  'filiation',
  'licenseValidity',
  'state',
  'birthDate',
  'firstLicenseDate',
  'cpf',
  'phone',
  'email',
  'observations',
] as const;
export type DriverField = (typeof DRIVER_FIELDS)[number];
/** Fields holding a date ('YYYY-MM-DD'). */
export const DRIVER_DATE_FIELDS: readonly DriverField[] = [
  'licenseValidity',
  'birthDate',
  'firstLicenseDate',
];
/** QR access fields (attributes `qr*`). */
export const DRIVER_QR_FIELDS = [
  'qrUsername',
  'qrPassword',
  'qrUnlockDevice',
  'qrLogoutOnIgnitionOff',
  'qrLockWithoutDriver',
  'qrLockTimeout',
  'qrLogoutTimeout',
] as const;
export type DriverQrField = (typeof DRIVER_QR_FIELDS)[number];
const QR_FLAGS: readonly DriverQrField[] = ['qrUnlockDevice', 'qrLogoutOnIgnitionOff', 'qrLockWithoutDriver'];
const QR_MINUTES: readonly DriverQrField[] = ['qrLockTimeout', 'qrLogoutTimeout'];
/** Attribute updated when the picture changes (cache buster of /{ns}/assets/images/drivers/{id}.png). */
export const DRIVER_IMAGE_KEY = 'imageUpdated';

export interface DriverFormValues {
  id: number;
  name: string;
  uniqueId: string;
  fields: Record<DriverField, string>;
  qr: { qrUsername: string; qrPassword: string; qrLockTimeout: string; qrLogoutTimeout: string } & Record<
    'qrUnlockDevice' | 'qrLogoutOnIgnitionOff' | 'qrLockWithoutDriver',
    boolean
  >;
  attributes: AttributeRow[];
  /** The server holds a QR password (never sent back): an empty password field keeps it. */
  qrPasswordSet: boolean;
}

const emptyFields = () =>
  Object.fromEntries(DRIVER_FIELDS.map((f) => [f, ''])) as Record<DriverField, string>;

export function emptyDriverForm(): DriverFormValues {
  return {
    id: 0,
    name: '',
    uniqueId: '',
    fields: emptyFields(),
    qr: {
      qrUsername: '',
      qrPassword: '',
      qrLockTimeout: '',
      qrLogoutTimeout: '',
      qrUnlockDevice: false,
      qrLogoutOnIgnitionOff: false,
      qrLockWithoutDriver: false,
    },
    attributes: [],
    qrPasswordSet: false,
  };
}

export function driverToForm(d: Driver): DriverFormValues {
  const f = emptyDriverForm();
  const a = d.attributes ?? {};
  f.id = d.id;
  f.name = d.name;
  f.uniqueId = d.uniqueId;
  for (const k of DRIVER_FIELDS) f.fields[k] = a[k] === undefined || a[k] === null ? '' : String(a[k]);
  f.qr.qrUsername = typeof a.qrUsername === 'string' ? a.qrUsername : '';
  // The server never returns the QR password (only its hash is stored): the field starts empty.
  f.qr.qrPassword = '';
  f.qrPasswordSet = a.qrPasswordSet === true;
  for (const k of QR_FLAGS) (f.qr as Record<string, unknown>)[k] = a[k] === true || a[k] === 'true';
  for (const k of QR_MINUTES)
    (f.qr as Record<string, unknown>)[k] =
      typeof a[k] === 'number' || typeof a[k] === 'string' ? String(a[k]) : '';
  f.attributes = attributesToRows(a, [
    ...DRIVER_FIELDS,
    ...DRIVER_QR_FIELDS,
    DRIVER_IMAGE_KEY,
    'qrPasswordSet',
  ]);
  return f;
}

/** Brazilian CPF check digits (11 digits, punctuation ignored). */
export function isValidCpf(value: string): boolean {
  const d = value.replace(/\D/g, '');
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  const digit = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return digit(9) === Number(d[9]) && digit(10) === Number(d[10]);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Driver form ⇒ Driver body; `existing` keeps attributes the form does not show (the picture stamp). */
export function parseDriverForm(v: DriverFormValues, existing?: Driver | null): FormResult<Driver> {
  const errors: Record<string, string> = {};
  const name = v.name.trim();
  const uniqueId = v.uniqueId.trim();
  if (!name) errors.name = 'errors.nameRequired';
  else if (name.length > 128) errors.name = 'errors.tooLong';
  if (!uniqueId) errors.uniqueId = 'errors.uniqueIdRequired';
  else if (uniqueId.length > 128) errors.uniqueId = 'errors.tooLong';
  const attrs = rowsToAttributes(v.attributes);
  if (!attrs.ok) for (const [i, e] of Object.entries(attrs.errors)) errors[`attributes.${i}`] = e;
  const out: Attributes = attrs.ok ? { ...attrs.attributes } : {};
  const image = existing?.attributes?.[DRIVER_IMAGE_KEY];
  if (image !== undefined) out[DRIVER_IMAGE_KEY] = image;
  for (const k of DRIVER_FIELDS) {
    const val = v.fields[k].trim();
    if (!val) continue;
    if (DRIVER_DATE_FIELDS.includes(k) && !DATE.test(val)) errors[k] = 'errors.dateInvalid';
    else if (k === 'cpf' && !isValidCpf(val)) errors[k] = 'errors.cpfInvalid';
    else if (k === 'email' && !EMAIL.test(val)) errors[k] = 'errors.emailInvalid';
    out[k] = k === 'cpf' ? val.replace(/\D/g, '') : val;
  }
  if (v.qr.qrUsername.trim()) out.qrUsername = v.qr.qrUsername.trim();
  if (v.qr.qrPassword) out.qrPassword = v.qr.qrPassword;
  for (const k of QR_FLAGS) if ((v.qr as Record<string, unknown>)[k] === true) out[k] = true;
  for (const k of QR_MINUTES) {
    const raw = String((v.qr as Record<string, unknown>)[k] ?? '').trim();
    if (!raw) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 10_080) errors[k] = 'errors.minutesInvalid';
    else out[k] = n;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: { id: v.id, name, uniqueId, attributes: out } };
}

/** A save refused by a unique index (Traccar's "Duplicate uniqueId", a database's unique constraint). */
export const isDuplicateRefusal = (status: number, text: string): boolean =>
  status === 400 && /duplicate|unique/i.test(text);

/** Maps a server answer to a driver-save failure key: the unique index ⇒ 'errors.uniqueIdTaken'. */
export function driverSaveError(status: number, text: string): string {
  if (isDuplicateRefusal(status, text)) return 'errors.uniqueIdTaken';
  if (status === 400 && /uniqueId/i.test(text)) return 'errors.uniqueIdRequired';
  return 'saveError';
}

// ---------------------------------------------------------------------------------------------------------------
// Maintenance

/** Maintenance types offered by the form; others (odometer, serverTime…) are kept as raw numbers. */
export const MAINTENANCE_TYPES = ['totalDistance', 'hours'] as const;

/** The unit the form shows for a type: the user's distance unit, hours, or the raw stored number. */
export function maintenanceUnit(type: string, distanceUnit: DistanceUnit): DistanceUnit | 'h' | null {
  if (type === 'totalDistance' || type === 'odometer') return distanceUnit;
  if (type === 'hours') return 'h';
  return null;
}

/** A stored Traccar value (metres / ms) in the form's unit. */
export function maintenanceToDisplay(type: string, stored: number, distanceUnit: DistanceUnit): number {
  const u = maintenanceUnit(type, distanceUnit);
  if (u === 'h') return msToHours(stored);
  if (u) return convertDistance(stored, u);
  return stored;
}

/** A value in the form's unit back to Traccar's (metres / ms). */
export function maintenanceFromDisplay(type: string, shown: number, distanceUnit: DistanceUnit): number {
  const u = maintenanceUnit(type, distanceUnit);
  if (u === 'h') return Math.round(hoursToMs(shown));
  if (u) return Math.round(distanceToMeters(shown, u) * 1000) / 1000;
  return shown;
}

/**
 * Next value at which the maintenance is due (CONTRACT: the event fires when the value crosses start + k·period):
 * without a current value, the first due point start + period; with one, the first start + k·period above it
 * (k ≥ 1 before reaching start + period; the start itself when the value is still below the start).
 */
export function maintenanceNextDue(start: number, period: number, current?: number | null): number {
  if (!(period > 0)) return start;
  if (current === undefined || current === null || !Number.isFinite(current)) return start + period;
  if (current < start) return start;
  const k = Math.floor((current - start) / period) + 1;
  return start + k * period;
}

export interface MaintenanceFormValues {
  id: number;
  name: string;
  type: string;
  /** In the form's unit (see maintenanceUnit). */
  start: string;
  period: string;
  attributes: Attributes;
}

export const emptyMaintenanceForm = (): MaintenanceFormValues => ({
  id: 0,
  name: '',
  type: 'totalDistance',
  start: '0',
  period: '',
  attributes: {},
});

const trimNumber = (n: number) => String(Math.round(n * 1000) / 1000);

export function maintenanceToForm(m: Maintenance, distanceUnit: DistanceUnit): MaintenanceFormValues {
  return {
    id: m.id,
    name: m.name,
    type: m.type,
    start: trimNumber(maintenanceToDisplay(m.type, m.start, distanceUnit)),
    period: trimNumber(maintenanceToDisplay(m.type, m.period, distanceUnit)),
    attributes: m.attributes ?? {},
  };
}

/** Reads a number typed with a comma or a point as decimal separator. */
export function readDecimal(text: string): number | null {
  const t = text.trim().replace(/\s/g, '');
  if (!t) return null;
  const norm = /,\d*$/.test(t) ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  const n = Number(norm);
  return Number.isFinite(n) ? n : null;
}

export function parseMaintenanceForm(
  v: MaintenanceFormValues,
  distanceUnit: DistanceUnit,
): FormResult<Maintenance> {
  const errors: Record<string, string> = {};
  const name = v.name.trim();
  if (!name) errors.name = 'errors.nameRequired';
  else if (name.length > 128) errors.name = 'errors.tooLong';
  if (!v.type.trim()) errors.type = 'errors.typeRequired';
  const start = readDecimal(v.start) ?? 0;
  if (readDecimal(v.start) === null && v.start.trim()) errors.start = 'errors.numberInvalid';
  else if (start < 0) errors.start = 'errors.numberInvalid';
  const period = readDecimal(v.period);
  if (period === null || period <= 0) errors.period = 'errors.periodInvalid';
  if (Object.keys(errors).length || period === null) return { ok: false, errors };
  return {
    ok: true,
    value: {
      id: v.id,
      name,
      type: v.type,
      start: maintenanceFromDisplay(v.type, start, distanceUnit),
      period: maintenanceFromDisplay(v.type, period, distanceUnit),
      attributes: v.attributes,
    },
  };
}

/** SPEC §5: deletes of groups and maintenance records need an id above 0. */
export const canDeleteById = (id: number | null | undefined): boolean => typeof id === 'number' && id > 0;
