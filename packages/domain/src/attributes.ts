// Small helpers for reading free-form Traccar attributes under the product namespace.

export const DEFAULT_NS = 'rastro';

/** `{ns}.name`, e.g. nsKey('rastro', 'color') === 'rastro.color'. */
export function nsKey(ns: string, name: string): string {
  return `${ns}.${name}`;
}

/** Attribute truthiness as stored by Traccar forms: true, 'true', 1, '1', 'on', 'yes'. */
export function attrBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return ['true', '1', 'on', 'yes'].includes(value.trim().toLowerCase());
  return false;
}

/** A value that is "set": not null/undefined, not an empty string, not 0, not false. */
export function attrPresent(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '' && value.trim() !== '0';
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  return true;
}

/** Numeric attribute or undefined when absent / not a number. */
export function attrNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function attrString(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * A device's plate, from 'placa' or 'plate' (blank: none). Here, not in deviceFormSchema.ts: the live map's labels
 * read it, and that module would bring zod into the map's first load.
 */
export function devicePlate(device: { attributes?: Record<string, unknown> | null }): string | undefined {
  const v = device.attributes?.placa ?? device.attributes?.plate;
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}
