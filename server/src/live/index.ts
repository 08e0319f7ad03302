import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Live side of the embedded core: positions, processing, socket, OsmAnd, commands, reports, simulator. */
export async function registerLive(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
