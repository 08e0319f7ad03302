// The computed-attribute form (SPEC §3 "Computed attribute", CONTRACT Attribute: description, attribute,
// expression, type string|number|boolean, priority), the links it keeps with devices and groups, and how the
// answer of POST /api/attributes/computed/test reads. Error values are keys of the web's `computed` namespace.
import { z } from 'zod';
import type { ComputedAttribute } from './types.ts';

export const COMPUTED_TYPES = ['string', 'number', 'boolean'] as const;
export type ComputedType = (typeof COMPUTED_TYPES)[number];

/** What the form holds while typing (priority as typed text). */
export interface ComputedFormValues {
  id: number;
  description: string;
  attribute: string;
  expression: string;
  type: ComputedType;
  priority: string;
}

export const emptyComputedForm = (): ComputedFormValues => ({
  id: 0,
  description: '',
  attribute: '',
  expression: '',
  type: 'number',
  priority: '0',
});

export function computedToForm(a: ComputedAttribute): ComputedFormValues {
  return {
    id: a.id,
    description: a.description ?? '',
    attribute: a.attribute,
    expression: a.expression,
    type: (COMPUTED_TYPES as readonly string[]).includes(a.type) ? a.type : 'string',
    priority: String(a.priority ?? 0),
  };
}

/** An attribute key: a letter or _ first, then letters, digits, _, . or - (as position attribute keys). */
export const ATTRIBUTE_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const INT32 = 2_147_483_647;

export const computedFormSchema = z.object({
  id: z.number().int().min(0),
  description: z.string().trim().min(1, 'validation.descriptionRequired').max(4096, 'validation.tooLong'),
  attribute: z
    .string()
    .trim()
    .min(1, 'validation.attributeRequired')
    .max(128, 'validation.tooLong')
    .regex(ATTRIBUTE_KEY, 'validation.attributeKey'),
  expression: z.string().trim().min(1, 'validation.expressionRequired').max(8192, 'validation.tooLong'),
  type: z.enum(COMPUTED_TYPES, { message: 'validation.type' }),
  priority: z
    .string()
    .trim()
    .transform((s) => (s === '' ? '0' : s))
    .pipe(
      z
        .string()
        .regex(/^-?\d{1,10}$/, 'validation.priority')
        .transform(Number)
        .pipe(z.number().min(-INT32, 'validation.priority').max(INT32, 'validation.priority')),
    ),
});
export type ComputedFormOutput = z.output<typeof computedFormSchema>;

/** Validates the form; the result is the Attribute body of POST/PUT /api/attributes/computed (and of test). */
export function parseComputedForm(
  v: ComputedFormValues,
): { ok: true; attribute: ComputedAttribute } | { ok: false; errors: Record<string, string> } {
  const r = computedFormSchema.safeParse(v);
  if (r.success) return { ok: true, attribute: r.data };
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message.startsWith('validation.') ? issue.message : 'validation.invalid';
  }
  return { ok: false, errors };
}

/** The answer of POST /api/attributes/computed/test as the form shows it. */
export type ComputedTestResult =
  { kind: 'value'; value: string | number | boolean } | { kind: 'null' } | { kind: 'error'; message: string };

/**
 * 200 JSON (number or boolean) or text (a string), 204 = null result or no position, 400 = the parse or evaluation
 * error text (the `IllegalArgumentException: ` prefix removed); any other status is an error with its text.
 */
export function readComputedTest(status: number, contentType: string, body: string): ComputedTestResult {
  if (status === 204) return { kind: 'null' };
  if (status === 200) {
    if (contentType.includes('json')) {
      try {
        const v = JSON.parse(body) as unknown;
        if (v === null) return { kind: 'null' };
        if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string')
          return { kind: 'value', value: v };
      } catch {
        return { kind: 'value', value: body };
      }
    }
    return { kind: 'value', value: body };
  }
  const text = body.replace(/^[A-Za-z.]*Exception:\s*/, '').trim();
  return { kind: 'error', message: text || `HTTP ${status}` };
}
