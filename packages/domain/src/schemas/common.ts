// Building blocks shared by the Traccar entity schemas (CONTRACT §1, §3): dates, ids, attributes.
import { z } from 'zod';
import { ID_LIST_MAX, parseIdList } from '../idList.ts';

/** ISO-8601 zoned date-time as Java's ISO_ZONED_DATE_TIME accepts it: a zone (Z or ±hh:mm) is mandatory. */
const ZONED =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})(\[[A-Za-z0-9_/+-]+\])?$/;

/** Parses a zoned ISO date (`2024-05-01T00:00:00Z`, `…000+00:00`, `…+02:00`); null when invalid or zone-less. */
export function parseZonedDate(text: string): Date | null {
  if (typeof text !== 'string' || !ZONED.test(text.trim())) return null;
  const d = new Date(text.trim().replace(/\[.*\]$/, ''));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Formats a date the way Traccar's Jackson does: UTC, milliseconds, `+00:00` offset (not `Z`). */
export function formatTraccarDate(value: Date | string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return d.toISOString().replace('Z', '+00:00');
}

/** A zoned ISO date string, normalised to `Date#toISOString()` form. */
export const zonedDate = z.string().transform((v, ctx) => {
  const d = parseZonedDate(v);
  if (!d) {
    ctx.addIssue({
      code: 'custom',
      message: `invalid date "${v.slice(0, 40)}" (expected ISO-8601 with zone)`,
    });
    return z.NEVER;
  }
  return d.toISOString();
});

/** Nullable date field defaulting to null (omitted ⇒ null, as on Traccar's full-replacement PUT). */
export const optionalDate = zonedDate.nullable().default(null);

// Traccar's Java binding (Jackson, scalar coercion on) reads a number sent as a JSON string ("4", "12.5") and a
// boolean sent as "true"/"false"; clients rely on it, so the schemas accept the same.
const NUMERIC_TEXT = /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
/** "4" ⇒ 4, "12.5" ⇒ 12.5; anything else unchanged (and then refused by the number schema). */
export const numericText = (v: unknown): unknown =>
  typeof v === 'string' && NUMERIC_TEXT.test(v) ? Number(v) : v;
/** "true"/"false" (any case) ⇒ boolean; anything else unchanged. */
export const booleanText = (v: unknown): unknown =>
  typeof v === 'string' && /^\s*(true|false)\s*$/i.test(v) ? v.trim().toLowerCase() === 'true' : v;

/** 64-bit ids as JSON integers (or decimal strings); "no reference" is 0. */
export const id = z.preprocess(numericText, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));
export const refId = id.default(0);

/** Free-form `attributes`: any JSON values, always an object (`{}` when omitted or null). */
export const attributes = z
  .record(z.string().max(200), z.json())
  .nullable()
  .default({})
  .transform((v) => v ?? {});

export const nullableStr = (max = 512) => z.string().max(max).nullable().default(null);
export const bool = z.preprocess(booleanText, z.boolean()).default(false);
export const num = z.preprocess(numericText, z.number().finite()).default(0);
export const int = z.preprocess(numericText, z.number().int()).default(0);

/** Query/form flag: `true`/`false`/`1`/`0`. */
export const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

/** A repeatable query parameter of ids (`id=1&id=2`): the domain's one id-list rule (idList.ts), else a 400. */
export const idList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v, ctx) => {
    const parsed = parseIdList(v);
    if (parsed.invalid.length) {
      ctx.addIssue({ code: 'custom', message: `invalid id "${parsed.invalid[0].slice(0, 30)}"` });
      return z.NEVER;
    }
    if (parsed.tooMany) {
      ctx.addIssue({ code: 'custom', message: `at most ${ID_LIST_MAX} ids` });
      return z.NEVER;
    }
    return parsed.ids;
  });

/** A single optional integer query parameter. */
export const queryInt = (min = 0) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      if (!/^-?\d{1,15}$/.test(v.trim()) || Number(v) < min) {
        ctx.addIssue({ code: 'custom', message: `invalid number "${v.slice(0, 30)}"` });
        return z.NEVER;
      }
      return Number(v.trim());
    });

/** Formats the first zod issue as a short human text, e.g. `uniqueId: Too small`. */
export function describeZodError(error: z.ZodError): string {
  const pick = (issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): string => {
    const issue = issues[0];
    if (!issue) return 'Invalid input';
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length) {
      // Prefer the most specific branch message (a custom check) over zod's generic "Invalid input".
      const branches = issue.errors.filter((b) => b.length);
      const best = branches.find((b) => b.some((i) => i.code === 'custom')) ?? branches[0];
      if (best) return pick(best, path);
    }
    return `${path.length ? `${path.map(String).join('.')}: ` : ''}${issue.message}`;
  };
  return pick(error.issues, []);
}
