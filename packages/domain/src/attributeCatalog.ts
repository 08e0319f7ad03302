// The position and device attributes a person reads (issue #29): each known Traccar key with its label, unit and
// formatter in the user's language (numbers with the locale's decimal mark; Traccar's metres in the user's
// distance unit, its engine-hours milliseconds as hours, booleans as yes/no, alarms by name, the driver's name
// for driverUniqueId). Unknown keys keep their raw key as label and are listed apart. Speeds are not here.
import { formatDistance, formatEngineHours, formatNumber } from './format.ts';
import { defaultMessages, isMessageKey, type MessageLocale } from './messages.ts';
import { normalizeLocale } from './locale.ts';
import { traccarName } from './traccarNames.ts';
import type { Attributes } from './types.ts';
import type { DistanceUnit } from './units.ts';

export type AttributeKind =
  | 'percent'
  | 'volts'
  | 'distance'
  | 'hours'
  | 'boolean'
  | 'alarm'
  | 'count'
  | 'decimal'
  | 'rpm'
  | 'litres'
  | 'celsius'
  | 'driver'
  | 'text';

/** Known attributes and how their values read. Labels: `attributes.<key>` in the message catalogue. */
export const KNOWN_ATTRIBUTES: Readonly<Record<string, AttributeKind>> = {
  batteryLevel: 'percent',
  battery: 'volts',
  power: 'volts',
  totalDistance: 'distance',
  distance: 'distance',
  odometer: 'distance',
  tripOdometer: 'distance',
  hours: 'hours',
  ignition: 'boolean',
  motion: 'boolean',
  charge: 'boolean',
  blocked: 'boolean',
  armed: 'boolean',
  door: 'boolean',
  roaming: 'boolean',
  alarm: 'alarm',
  rssi: 'count',
  sat: 'count',
  satVisible: 'count',
  hdop: 'decimal',
  pdop: 'decimal',
  vdop: 'decimal',
  fuel: 'litres',
  fuelLevel: 'percent',
  fuelUsed: 'litres',
  rpm: 'rpm',
  throttle: 'percent',
  engineLoad: 'percent',
  temp1: 'celsius',
  temp2: 'celsius',
  temp3: 'celsius',
  temp4: 'celsius',
  deviceTemp: 'celsius',
  coolantTemp: 'celsius',
  driverUniqueId: 'driver',
  event: 'count',
  status: 'count',
  input: 'count',
  output: 'count',
  iccid: 'text',
  operator: 'text',
  versionFw: 'text',
  versionHw: 'text',
  result: 'text',
  steps: 'count',
};

export interface AttributeFormatContext {
  locale: string | null | undefined;
  distanceUnit: DistanceUnit;
  /** The name of the driver with this unique id, when the caller knows it. */
  driverName?: (uniqueId: string) => string | undefined;
}

export interface AttributeDisplay {
  key: string;
  /** The translated label of a known attribute; the raw key of another. */
  label: string;
  value: string;
}

const localeOf = (l: string | null | undefined): MessageLocale => normalizeLocale(l) ?? 'pt-BR';

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

function asBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

const plainNumbers = new Map<string, Intl.NumberFormat>();
/** A number as the locale writes it, up to 2 decimals (no trailing zeros). */
function plainNumber(n: number, locale: MessageLocale): string {
  let f = plainNumbers.get(locale);
  if (!f) plainNumbers.set(locale, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })));
  return f.format(n);
}

/** One attribute's value as a person reads it, in the context's language and units; '—' when empty. */
export function formatAttributeValue(key: string, value: unknown, ctx: AttributeFormatContext): string {
  if (value === null || value === undefined || value === '') return '—';
  const locale = localeOf(ctx.locale);
  const words = defaultMessages[locale];
  const bool = asBoolean(value);
  if (bool !== undefined) return bool ? words['attributeValues.yes'] : words['attributeValues.no'];
  const kind = Object.prototype.hasOwnProperty.call(KNOWN_ATTRIBUTES, key)
    ? KNOWN_ATTRIBUTES[key]
    : undefined;
  const n = asNumber(value);
  if (kind === 'alarm' && typeof value === 'string')
    return value
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .map((a) => traccarName('alarms', a, locale))
      .join(', ');
  if (kind === 'driver') {
    const id = String(value);
    return ctx.driverName?.(id) ?? id;
  }
  if (n !== undefined && kind && kind !== 'text' && kind !== 'boolean') {
    switch (kind) {
      case 'percent':
        return `${formatNumber(n, locale, 0)}%`;
      case 'volts':
        return `${formatNumber(n, locale, 2)} V`;
      case 'distance':
        return formatDistance(n, ctx.distanceUnit, locale);
      case 'hours':
        return formatEngineHours(n, locale);
      case 'count':
        return formatNumber(n, locale, 0);
      case 'decimal':
        return formatNumber(n, locale, 1);
      case 'rpm':
        return `${formatNumber(n, locale, 0)} rpm`;
      case 'litres':
        return `${formatNumber(n, locale, 1)} L`;
      case 'celsius':
        return `${formatNumber(n, locale, 1)} °C`;
    }
  }
  if (typeof value === 'number') return plainNumber(value, locale);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The label of an attribute: translated when known, else its raw key. */
export function attributeLabel(key: string, locale: string | null | undefined): string {
  const k = `attributes.${key}`;
  return Object.prototype.hasOwnProperty.call(KNOWN_ATTRIBUTES, key) && isMessageKey(k)
    ? defaultMessages[localeOf(locale)][k]
    : key;
}

/** Attributes split into the known ones (sorted by label) and the others (raw keys, sorted), never mixed. */
export function describeAttributes(
  attributes: Attributes | null | undefined,
  ctx: AttributeFormatContext,
): { known: AttributeDisplay[]; others: AttributeDisplay[] } {
  const known: AttributeDisplay[] = [];
  const others: AttributeDisplay[] = [];
  const locale = localeOf(ctx.locale);
  for (const [key, value] of Object.entries(attributes ?? {})) {
    const row = { key, label: attributeLabel(key, locale), value: formatAttributeValue(key, value, ctx) };
    (Object.prototype.hasOwnProperty.call(KNOWN_ATTRIBUTES, key) ? known : others).push(row);
  }
  known.sort((a, b) => a.label.localeCompare(b.label, locale));
  others.sort((a, b) => a.key.localeCompare(b.key));
  return { known, others };
}
