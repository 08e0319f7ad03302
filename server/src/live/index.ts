import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { getLive } from './ingest.ts';

/** Live side of the embedded core: positions, processing, socket, OsmAnd, commands, reports, simulator. */
export async function registerLive(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const live = getLive(ctx);
  live.start();
  // Anything written through the API may change what the pipeline reads (devices, geofences, links...).
  app.addHook('onSend', async (req, _reply, payload) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.url.startsWith('/api/')) live.invalidate();
    return payload;
  });
  ctx.bus.on('permissions', () => live.invalidate());
  ctx.bus.on('device', () => live.invalidate());
  ctx.onClose.push(() => live.close());
}
