// Small request helpers shared by the embedded routes: zod parsing into Traccar-style 400 texts (the edge, edge.ts,
// parses each route's params, query and body; these serve the few bodies read after it).
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeZodError } from '@rastro/domain';
import { badRequest } from '../errors.ts';

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
