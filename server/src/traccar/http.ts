// Small request helpers shared by the embedded routes: zod parsing into Traccar-style 400 texts.
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeZodError } from '@rastro/domain';
import { ApiError, badRequest } from '../errors.ts';

/** Validates `data` with `schema`; bad input ⇒ 400 `IllegalArgumentException: <field>: <problem>`. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const r = schema.safeParse(data);
  if (!r.success) throw badRequest(describeZodError(r.error));
  return r.data;
}

/** A JSON object body (arrays, strings and empty bodies are refused with 400). */
export function jsonObject(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('expected a JSON object body');
  return b as Record<string, unknown>;
}

/** A form-urlencoded body (CONTRACT §1): other content types ⇒ 415. */
export function formBody(req: FastifyRequest, strict = false): Record<string, unknown> {
  const type = String(req.headers['content-type'] ?? '');
  const isForm = type.toLowerCase().startsWith('application/x-www-form-urlencoded');
  if (strict && !isForm) {
    throw new ApiError(415, 'Unsupported Media Type', 'NotSupportedException');
  }
  const b = req.body;
  if (b === undefined || b === null || b === '') return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('expected a form body');
  // Repeated form fields arrive as arrays: keep the first value.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b as Record<string, unknown>)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}

/** A positive integer path id, else 400. */
export function pathId(req: FastifyRequest, name = 'id'): number {
  const raw = (req.params as Record<string, string>)[name];
  if (!/^\d{1,15}$/.test(raw ?? '') || Number(raw) <= 0)
    throw badRequest(`invalid id "${String(raw).slice(0, 30)}"`);
  return Number(raw);
}

export function query(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}
