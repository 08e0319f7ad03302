// /{ns}/shares in gateway mode (server/src/ext/sharesGateway.ts) in front of an upstream Traccar (here: our own
// embedded server): a link is made upstream as the caller, listed, extended (a new token for the same guest, the
// old one revoked) and revoked (the token and the guest's open session fail at once); TRACCAR_TOKEN is needed and
// its absence is a translated 400; another user neither sees nor revokes a link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, type ShareRecord } from '@rastro/domain';
import { forgetUpstreamServer } from '../../src/authorize.ts';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  startGatewayPair,
  type CreatedUser,
  type GatewayPair,
} from '../helpers/index.ts';

let pair: GatewayPair;
let owner: CreatedUser;
let stranger: CreatedUser;
let device: { id: number; name: string };
let serviceToken: string;
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

beforeAll(async () => {
  pair = await startGatewayPair('rastro-gw-shares-');
  owner = await createUser(pair.upstream);
  stranger = await createUser(pair.upstream);
  device = (await createDevice(pair.upstream)) as { id: number; name: string };
  await link(pair.upstream, { userId: owner.id, deviceId: device.id });
  const res = await pair.upstream.app.inject({
    method: 'POST',
    url: '/api/session/token',
    headers: { cookie: pair.upstream.admin, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `expiration=${encodeURIComponent(inHours(72))}`,
  });
  serviceToken = res.body.trim();
  expect(serviceToken.length).toBeGreaterThan(20);
});
afterAll(async () => pair.close());

/** A call to the gateway as `cookie` (the upstream session cookie passes through untouched). */
const gw = (
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  lang = 'en-US',
) =>
  pair.gateway.inject({
    method,
    url: `/${pair.ns}${url}`,
    headers: { cookie, 'accept-language': lang },
    ...(body === undefined ? {} : { payload: body as object }),
  });

/** Logs a guest in upstream with a share token: its cookie, or the refusal's status. */
async function guest(token: string): Promise<{ status: number; cookie: string }> {
  const res = await api(pair.upstream.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
  const c = res.cookies.find((x) => x.name === 'JSESSIONID');
  return { status: res.statusCode, cookie: c ? `JSESSIONID=${c.value}` : '' };
}

describe('/{ns}/shares through a gateway', () => {
  let share: ShareRecord;

  it('without TRACCAR_TOKEN a link cannot be managed: translated 400, nothing made upstream', async () => {
    pair.gatewayCtx.config.traccarToken = undefined;
    const res = await gw(
      owner.cookie,
      'POST',
      '/shares',
      { deviceId: device.id, expirationTime: inHours(24) },
      'pt-BR',
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(`IllegalArgumentException: ${formatMessage('share.gatewayNeedsToken', 'pt-BR')}`);
    expect(expectStatus<ShareRecord[]>(await gw(owner.cookie, 'GET', '/shares'), 200)).toEqual([]);
    pair.gatewayCtx.config.traccarToken = serviceToken;
  });

  it('creates a link upstream as the caller; the guest sees the one device; the list names device and creator', async () => {
    const until = inHours(24);
    share = expectStatus<ShareRecord>(
      await gw(owner.cookie, 'POST', '/shares', { deviceId: device.id, expirationTime: until }),
      200,
    );
    expect(share).toMatchObject({ deviceId: device.id, name: device.name, creatorId: owner.id });
    expect(Date.parse(share.expirationTime)).toBe(Date.parse(until));
    const g = await guest(share.token);
    expect(g.status).toBe(200);
    const devices = expectStatus<Array<{ id: number }>>(
      await api(pair.upstream.app, g.cookie, 'GET', '/api/devices'),
      200,
    );
    expect(devices.map((d) => d.id)).toEqual([device.id]);
    const list = expectStatus<ShareRecord[]>(await gw(owner.cookie, 'GET', '/shares'), 200);
    expect(list.map((s) => s.id)).toEqual([share.id]);
    expect(list[0].creatorName).toBe(`User ${owner.email}`);
  });

  it('a device the caller does not see cannot be shared; bad input is a translated 400', async () => {
    const other = (await createDevice(pair.upstream)) as { id: number };
    const foreign = await gw(owner.cookie, 'POST', '/shares', {
      deviceId: other.id,
      expirationTime: inHours(2),
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('Device access denied');
    const past = await gw(owner.cookie, 'POST', '/shares', {
      deviceId: device.id,
      expirationTime: inHours(-1),
    });
    expect(past.statusCode).toBe(400);
  });

  it('another user neither lists, extends nor revokes the link (404)', async () => {
    expect(expectStatus<ShareRecord[]>(await gw(stranger.cookie, 'GET', '/shares'), 200)).toEqual([]);
    expect(
      (await gw(stranger.cookie, 'PUT', `/shares/${share.id}`, { expirationTime: inHours(5) })).statusCode,
    ).toBe(404);
    expect((await gw(stranger.cookie, 'DELETE', `/shares/${share.id}`)).statusCode).toBe(404);
  });

  it('on a read-only server the owner neither extends nor revokes (400), and the link is unchanged', async () => {
    const server = expectStatus<Record<string, unknown>>(
      await api(pair.upstream.app, pair.upstream.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(pair.upstream.app, pair.upstream.admin, 'PUT', '/api/server', { ...server, readonly: true }),
      200,
    );
    forgetUpstreamServer(pair.gatewayCtx);
    try {
      const put = await gw(owner.cookie, 'PUT', `/shares/${share.id}`, { expirationTime: inHours(5) });
      expect(put.statusCode).toBe(400);
      expect((await gw(owner.cookie, 'DELETE', `/shares/${share.id}`)).statusCode).toBe(400);
      expect((await guest(share.token)).status).toBe(200);
    } finally {
      expectStatus(
        await api(pair.upstream.app, pair.upstream.admin, 'PUT', '/api/server', {
          ...server,
          readonly: false,
        }),
        200,
      );
      forgetUpstreamServer(pair.gatewayCtx);
    }
  });

  it('extending gives a new token for the same guest until the new expiry; the old token stops working', async () => {
    const until = inHours(48);
    const extended = expectStatus<ShareRecord>(
      await gw(owner.cookie, 'PUT', `/shares/${share.id}`, { expirationTime: until }),
      200,
    );
    expect(Date.parse(extended.expirationTime)).toBe(Date.parse(until));
    expect(extended.token).not.toBe(share.token);
    expect((await guest(share.token)).status).toBe(401);
    expect((await guest(extended.token)).status).toBe(200);
    share = extended;
  });

  it('revoking ends the link at once: its token and the guest session it opened both fail', async () => {
    const g = await guest(share.token);
    expect(g.status).toBe(200);
    expect((await api(pair.upstream.app, g.cookie, 'GET', '/api/devices')).statusCode).toBe(200);
    expect((await gw(owner.cookie, 'DELETE', `/shares/${share.id}`)).statusCode).toBe(204);
    expect((await guest(share.token)).status).toBe(401);
    expect((await api(pair.upstream.app, g.cookie, 'GET', '/api/devices')).statusCode).toBe(401);
    expect(expectStatus<ShareRecord[]>(await gw(owner.cookie, 'GET', '/shares'), 200)).toEqual([]);
  });
});
