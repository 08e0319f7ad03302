// Computed attributes applied to a position (CONTRACT §7: after motion, before driver and engine hours).
// Attributes run in order of priority, higher first (ties by id); each result is coerced to the attribute's type and
// written to position.attributes[attribute], or to the position field when `attribute` is speed, course, altitude,
// accuracy or valid. Later attributes see earlier results. A failing or uncoercible attribute is skipped.
import type { Position } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import type { IncomingPosition } from '../types.ts';
import { compile, evaluate, toValue, type Value } from './expression.ts';

export interface ComputedAttribute {
  id: number;
  attribute: string;
  expression: string;
  type: string;
  priority: number;
}

/** The position fields an expression can read (times as epoch milliseconds). */
export interface PositionFields {
  deviceId: number;
  protocol: string;
  latitude: number;
  longitude: number;
  altitude: number;
  /** knots */
  speed: number;
  course: number;
  accuracy: number;
  valid: boolean;
  fixTime: number;
  deviceTime: number;
  serverTime: number;
}

/** Position fields a computed attribute may overwrite (`attribute` names the field). */
export const WRITABLE_FIELDS = ['speed', 'course', 'altitude', 'accuracy', 'valid'] as const;
type WritableField = (typeof WRITABLE_FIELDS)[number];
const isWritable = (k: string): k is WritableField => (WRITABLE_FIELDS as readonly string[]).includes(k);
const FIELD_NAMES = new Set([
  'deviceId',
  'protocol',
  'latitude',
  'longitude',
  'altitude',
  'speed',
  'course',
  'accuracy',
  'valid',
  'fixTime',
  'deviceTime',
  'serverTime',
]);

/** Higher priority first; equal priorities by id. Returns a new array. */
export function sortByPriority<T extends { id: number; priority: number }>(list: Iterable<T>): T[] {
  return [...list].sort((a, b) => b.priority - a.priority || a.id - b.id);
}

/**
 * Coerces an expression result to the attribute type: number (numbers, numeric text, booleans as 1/0), boolean
 * (booleans, numbers ≠ 0, "true"/"false"), string (anything). Returns undefined when it cannot, or for null.
 */
export function coerce(v: Value, type: string): number | string | boolean | undefined {
  if (v === null) return undefined;
  switch (type) {
    case 'number': {
      if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
      if (typeof v === 'boolean') return v ? 1 : 0;
      const n = v.trim() === '' ? NaN : Number(v);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      if (v.toLowerCase() === 'true') return true;
      if (v.toLowerCase() === 'false') return false;
      return undefined;
    case 'string':
      return String(v);
    default:
      return undefined;
  }
}

/** Name lookup for an expression: position fields first, then the position's attributes; anything else null. */
export function scopeOf(fields: PositionFields, attrs: Record<string, unknown>): (name: string) => unknown {
  return (name) => {
    if (FIELD_NAMES.has(name)) return fields[name as keyof PositionFields];
    return Object.hasOwn(attrs, name) ? attrs[name] : null;
  };
}

/** Evaluates one attribute's expression against the position (no coercion). Throws on parse/eval errors. */
export function computeValue(
  attr: Pick<ComputedAttribute, 'expression'>,
  fields: PositionFields,
  attrs: Record<string, unknown>,
): Value {
  const v = toValue(evaluate(compile(attr.expression), scopeOf(fields, attrs)));
  return typeof v === 'number' && !Number.isFinite(v) ? null : v;
}

export type SkipReason = 'error' | 'null' | 'type';

/**
 * Applies the attributes (already in order) to `fields` and `attrs`, in place. Never throws: an attribute that
 * fails to parse or evaluate, gives null, or cannot be coerced is reported to `onSkip` and left out.
 */
export function applyComputedAttributes(
  list: readonly ComputedAttribute[],
  fields: PositionFields,
  attrs: Record<string, unknown>,
  onSkip?: (attr: ComputedAttribute, reason: SkipReason, err?: unknown) => void,
): void {
  for (const attr of list) {
    let raw: Value;
    try {
      raw = computeValue(attr, fields, attrs);
    } catch (err) {
      onSkip?.(attr, 'error', err);
      continue;
    }
    const v = coerce(raw, attr.type);
    if (v === undefined) {
      onSkip?.(attr, raw === null ? 'null' : 'type');
      continue;
    }
    const key = attr.attribute;
    if (isWritable(key)) {
      if (key === 'valid') {
        if (typeof v !== 'boolean') {
          onSkip?.(attr, 'type');
          continue;
        }
        fields.valid = v;
      } else {
        if (typeof v !== 'number') {
          onSkip?.(attr, 'type');
          continue;
        }
        fields[key] = v;
      }
    } else {
      attrs[key] = v;
    }
  }
}

/** The fields of a stored position. */
export function fieldsOfPosition(p: Position): PositionFields {
  return {
    deviceId: p.deviceId,
    protocol: p.protocol ?? '',
    latitude: p.latitude,
    longitude: p.longitude,
    altitude: p.altitude,
    speed: p.speed,
    course: p.course,
    accuracy: p.accuracy,
    valid: p.valid,
    fixTime: Date.parse(p.fixTime),
    deviceTime: Date.parse(p.deviceTime),
    serverTime: Date.parse(p.serverTime),
  };
}

/**
 * The live core's step: applies the device's computed attributes to an incoming position. `attrs` is updated in
 * place; the returned position carries any changed fields (the same object when nothing applies).
 */
export function computeIncoming(
  ctx: AppContext,
  list: readonly ComputedAttribute[],
  deviceId: number,
  p: IncomingPosition,
  attrs: Record<string, unknown>,
  now: Date,
): IncomingPosition {
  if (list.length === 0) return p;
  const fields: PositionFields = {
    deviceId,
    protocol: p.protocol,
    latitude: p.latitude,
    longitude: p.longitude,
    altitude: p.altitude ?? 0,
    speed: p.speed ?? 0,
    course: p.course ?? 0,
    accuracy: p.accuracy ?? 0,
    valid: p.valid !== false,
    fixTime: p.fixTime.getTime(),
    deviceTime: (p.deviceTime ?? p.fixTime).getTime(),
    serverTime: now.getTime(),
  };
  applyComputedAttributes(list, fields, attrs, (attr, reason, err) => {
    ctx.log.debug(
      { attributeId: attr.id, deviceId, reason, error: err instanceof Error ? err.message : undefined },
      'computed attribute skipped',
    );
  });
  return {
    ...p,
    altitude: fields.altitude,
    speed: fields.speed,
    course: fields.course,
    accuracy: fields.accuracy,
    valid: fields.valid,
  };
}
