// The fleet dashboard and scores through a gateway (server/src/ext/insightsGateway.ts): the upstream Traccar keeps
// no hours of activity, so the calls answer a translated 400 saying they need the embedded server; no session, 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import { createUser, startGatewayPair, type CreatedUser, type GatewayPair } from '../helpers/index.ts';

let pair: GatewayPair;
let user: CreatedUser;

beforeAll(async () => {
  pair = await startGatewayPair('rastro-gw-insights-');
  user = await createUser(pair.upstream);
});
afterAll(async () => pair.close());

const span = `from=${encodeURIComponent('2026-11-20T00:00:00Z')}&to=${encodeURIComponent('2026-11-21T00:00:00Z')}`;

describe('/{ns}/dashboard and /{ns}/scores through a gateway', () => {
  it.each(['dashboard', 'scores', 'scores/xlsx'])('%s: a translated 400, no 404 and no 500', async (path) => {
    const res = await pair.gateway.inject({
      method: 'GET',
      url: `/${pair.ns}/${path}?${span}`,
      headers: { cookie: user.cookie, 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(formatMessage('insights.needsEmbedded', 'es'));
  });

  it('signed out: 401', async () => {
    const res = await pair.gateway.inject({ method: 'GET', url: `/${pair.ns}/dashboard?${span}` });
    expect(res.statusCode).toBe(401);
  });
});
