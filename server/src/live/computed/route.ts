// POST /api/attributes/computed/test?deviceId= (CONTRACT §4): admin only; evaluates an Attribute against the
// device's latest position with the live core's own code. 200 JSON number/boolean, text/plain for a string,
// 204 for null or no position, 400 with the parse or evaluation error text.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { computedAttributeInput } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { badRequest, denied } from '../../errors.ts';
import { checkAdmin } from '../../traccar/access.ts';
import { requireUser } from '../../traccar/auth.ts';
import { edge, edgeValue } from '../../edge.ts';
import type { LiveCore } from '../ingest.ts';
import { coerce, computeValue, fieldsOfPosition } from './apply.ts';
import { compile, ExpressionError } from './expression.ts';

const testQuery = z.object({
  deviceId: z
    .string({ message: 'deviceId: required' })
    .regex(/^\d{1,15}$/, 'deviceId: invalid id')
    .transform(Number),
});

export function registerComputedTestRoute(app: FastifyInstance, ctx: AppContext, live: LiveCore): void {
  const testEdge = edge({ query: testQuery, body: computedAttributeInput, need: 'table' });
  app.post('/api/attributes/computed/test', testEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    checkAdmin(user);
    const { deviceId } = edgeValue(testQuery, req.query);
    const attr = edgeValue(computedAttributeInput, req.body);
    if (!(await live.cache.freshAsync()).device(deviceId)) throw denied('Device access denied');
    try {
      compile(attr.expression);
    } catch (err) {
      if (err instanceof ExpressionError) throw badRequest(`expression: ${err.message}`);
      throw err;
    }
    const position = await live.latestPositionAsync(deviceId);
    if (!position) return reply.code(204).send();
    let raw;
    try {
      raw = computeValue(attr, fieldsOfPosition(position), { ...position.attributes });
    } catch (err) {
      throw badRequest(`expression: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (raw === null) return reply.code(204).send();
    const value = coerce(raw, attr.type);
    if (value === undefined) {
      throw badRequest(`expression: result ${JSON.stringify(raw)} is not a ${attr.type}`);
    }
    if (typeof value === 'string') return reply.type('text/plain; charset=utf-8').send(value);
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
  });
}
