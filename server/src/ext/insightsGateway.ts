// The fleet dashboard and scores in gateway mode: they sum the hours of activity the embedded ingestion keeps
// (live/activity.ts), which an upstream Traccar does not have, so the calls answer a translated 400 saying so
// (the page shows it) instead of a bare 404. Signed-out callers get 401 as everywhere.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { edge } from '../edge.ts';
import { unauthorized } from '../errors.ts';
import { upstreamUser } from '../gateway/identity.ts';
import { invalidInput } from '../invalid.ts';

export function registerGatewayInsights(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.mode !== 'gateway') return;
  const ns = ctx.config.ns;
  for (const path of ['dashboard', 'scores', 'scores/xlsx'])
    app.get(`/${ns}/${path}`, edge({ need: 'signedIn' }), async (req) => {
      const user = await upstreamUser(ctx, req);
      if (!user) throw unauthorized();
      throw invalidInput(ctx, req, user, 'insights.needsEmbedded');
    });
}
