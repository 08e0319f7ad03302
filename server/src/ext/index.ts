import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** The /{ns} extension API plus /api/weather and /api/server-health (same code in both modes). */
export async function registerExtensions(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
