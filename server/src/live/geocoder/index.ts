// Wires the reverse geocoder (config.geocoder) into the live core: newest positions get addresses, reports are
// filled from the cache, and GET /api/server/geocode answers with an address (Traccar's endpoint).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { normalizeLocale } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { setPositionAddress } from '../../db/repos/positions.ts';
import { edge, edgeValue } from '../../edge.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../traccar/auth.ts';
import type { LiveCore } from '../ingest.ts';
import { nominatimClient, type ReverseGeocoder } from './client.ts';
import { GeocoderService } from './service.ts';

const services = new WeakMap<AppContext, GeocoderService>();

/** The app's geocoder, or null when none is configured. */
export function getGeocoder(ctx: AppContext): GeocoderService | null {
  return services.get(ctx) ?? null;
}

/** `latitude` and `longitude` in range, else 400 `<name> is required` (the query of GET /api/server/geocode). */
const coordinatesQuery = z.record(z.string(), z.unknown()).transform((q, c) => {
  const read = (name: string, limit: number) => {
    const v = q[name];
    const n = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    if (Number.isFinite(n) && Math.abs(n) <= limit) return n;
    c.addIssue({ code: 'custom', message: `${name} is required` });
    return NaN;
  };
  const latitude = read('latitude', 90);
  const longitude = Number.isNaN(latitude) ? NaN : read('longitude', 180);
  return { latitude, longitude };
});

export function registerGeocoder(
  app: FastifyInstance,
  ctx: AppContext,
  live: LiveCore,
  client?: ReverseGeocoder,
): void {
  const cfg = ctx.config.geocoder;
  if (cfg) {
    const service = new GeocoderService(client ?? nominatimClient(cfg), {
      minIntervalMs: cfg.minIntervalMs,
      // the server's language as the live cache last read it (a lookup is synchronous: never a reload here, so on
      // PostgreSQL the main thread never waits, issue #30); a stale cache is read again in the background
      language: () => {
        if (live.cache.stale)
          live.cache
            .freshAsync()
            .catch((err: unknown) => ctx.log.warn({ err }, 'geocoder: reading the settings failed'));
        const v = live.cache.serverAttrs[`${ctx.config.ns}.lang`];
        return (typeof v === 'string' && normalizeLocale(v)) || 'pt-BR';
      },
      saveAddress: async (p, address) => {
        try {
          await setPositionAddress(ctx.store.sql, p.id, address); // one autocommitted write, the main thread free
        } catch (err) {
          ctx.log.warn({ err, positionId: p.id }, 'geocoded address not stored');
          return;
        }
        live.setLatestAddress(p.deviceId, p.id, address); // what GET /api/positions and the socket serve
      },
    });
    services.set(ctx, service);
    if (cfg.onIngest) {
      const stop = live.subscribe({ positions: (ps) => service.enqueue(ps) });
      ctx.onClose.push(() => stop());
    }
  }

  app.get('/api/server/geocode', edge({ query: coordinatesQuery, need: 'signedIn' }), async (req, reply) => {
    await requireUser(ctx, req);
    const q = edgeValue(coordinatesQuery, req.query);
    const service = getGeocoder(ctx);
    if (!service) throw badRequest('Geocoder is disabled');
    const address = await service.reverse(q.latitude, q.longitude);
    if (!address) return reply.status(204).send();
    return reply.type('text/plain; charset=utf-8').send(address);
  });
}
