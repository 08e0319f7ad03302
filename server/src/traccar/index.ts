import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** The embedded Traccar-compatible REST API: session, users, CRUD resources, permissions, server. */
export async function registerTraccar(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
