import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Gateway mode: /api/* and /api/socket proxied to TRACCAR_URL. */
export async function registerGateway(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
