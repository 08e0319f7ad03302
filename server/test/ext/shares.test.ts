// Shared links of the extension API (server/src/ext/shares.ts): list, create, extend and revoke, who sees which
// link, translated bad input, the Plus edition, and a revoked link failing at once (login, session and socket).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { formatMessage, type ShareRecord } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { count, one, update } from '../support/testSql.ts';

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** GET /api/session?token= ⇒ the guest's cookie header, or the status when refused. */
async function guestLogin(t: TestApp, token: string): Promise<{ status: number; cookie: string }> {
  const res = await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
  const c = res.cookies.find((x) => x.name === 'JSESSIONID');
  return { status: res.statusCode, cookie: c ? `JSESSIONID=${c.value}` : '' };
}

describe('/{ns}/shares (embedded, Plus)', () => {
  let t: TestApp;
  let ns: string;
  let owner: CreatedUser;
  let device: { id: number; name: string };
  let url: string;
  beforeAll(async () => {
    t = await makeTestApp();
    ns = t.ctx.config.ns;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/socket`;
    owner = await createUser(t);
    device = (await createDevice(t)) as { id: number; name: string };
    await link(t, { userId: owner.id, deviceId: device.id });
  });
  afterAll(async () => t.close());

  const create = (cookie: string, body: unknown, lang = 'en-US') =>
    t.app.inject({
      method: 'POST',
      url: `/${ns}/shares`,
      headers: { cookie, 'accept-language': lang, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('creates a link that logs a guest in to that one device; lists it with token, device, expiry and creator', async () => {
    const until = inHours(24);
    const s = expectStatus<ShareRecord>(
      await create(owner.cookie, { deviceId: device.id, expirationTime: until }),
      200,
    );
    expect(s.id).toBeGreaterThan(0);
    expect(s.token.length).toBeGreaterThanOrEqual(40);
    expect(s).toMatchObject({ deviceId: device.id, groupId: null, name: device.name, creatorId: owner.id });
    expect(Date.parse(s.expirationTime)).toBe(Date.parse(until));

    const list = expectStatus<ShareRecord[]>(await api(t.app, owner.cookie, 'GET', `/${ns}/shares`), 200);
    expect(list.map((x) => x.id)).toContain(s.id);
    expect(list.find((x) => x.id === s.id)?.creatorName).toBe(`User ${owner.email}`);

    const guest = await guestLogin(t, s.token);
    expect(guest.status).toBe(200);
    const devices = expectStatus<Array<{ id: number }>>(
      await api(t.app, guest.cookie, 'GET', '/api/devices'),
      200,
    );
    expect(devices.map((d) => d.id)).toEqual([device.id]);
  });

  it('two links of one device are independent: revoking one leaves the other working', async () => {
    const a = expectStatus<ShareRecord>(
      await create(owner.cookie, { deviceId: device.id, expirationTime: inHours(48) }),
      200,
    );
    const b = expectStatus<ShareRecord>(
      await create(owner.cookie, { deviceId: device.id, expirationTime: inHours(2) }),
      200,
    );
    expect((await api(t.app, owner.cookie, 'DELETE', `/${ns}/shares/${b.id}`)).statusCode).toBe(204);
    expect((await guestLogin(t, b.token)).status).toBe(401);
    expect((await guestLogin(t, a.token)).status).toBe(200);
  });

  it('a revoked link fails at once: its token, its open session and its socket', async () => {
    const s = expectStatus<ShareRecord>(
      await create(owner.cookie, { deviceId: device.id, expirationTime: inHours(5) }),
      200,
    );
    const guest = await guestLogin(t, s.token);
    expect(guest.status).toBe(200);
    const ws = new WebSocket(url, { headers: { cookie: guest.cookie } });
    await new Promise<void>((ok, ko) => {
      ws.once('open', () => ok());
      ws.once('error', ko);
    });
    const closed = new Promise<number>((ok) => ws.once('close', (code) => ok(code)));

    expect((await api(t.app, owner.cookie, 'DELETE', `/${ns}/shares/${s.id}`)).statusCode).toBe(204);

    expect(await closed).toBe(4001);
    expect((await api(t.app, guest.cookie, 'GET', '/api/devices')).statusCode).toBe(401);
    expect((await guestLogin(t, s.token)).status).toBe(401);
    const list = expectStatus<ShareRecord[]>(await api(t.app, owner.cookie, 'GET', `/${ns}/shares`), 200);
    expect(list.map((x) => x.id)).not.toContain(s.id);
  });

  it('PUT changes the expiry: the token and the guest follow (a shorter expiry ends the link sooner)', async () => {
    const s = expectStatus<ShareRecord>(
      await create(owner.cookie, { deviceId: device.id, expirationTime: inHours(3) }),
      200,
    );
    const guest = await guestLogin(t, s.token);
    const later = inHours(72);
    const put = expectStatus<ShareRecord>(
      await api(t.app, owner.cookie, 'PUT', `/${ns}/shares/${s.id}`, { expirationTime: later }),
      200,
    );
    expect(Date.parse(put.expirationTime)).toBe(Date.parse(later));
    const tok = (await one(t.ctx.store.sql, (q) =>
      q
        .selectFrom('tokens as tk')
        .innerJoin('shares as sh', 'sh.tokenId', 'tk.id')
        .select('tk.expiresAt')
        .where('sh.id', '=', s.id),
    ))!;
    expect(Date.parse(tok.expiresAt)).toBe(Date.parse(later));
    const me = expectStatus<{ expirationTime: string }>(
      await api(t.app, guest.cookie, 'GET', '/api/session'),
      200,
    );
    expect(Date.parse(me.expirationTime)).toBe(Date.parse(later));

    // Shortened to one second from now: after it the session and the token are refused.
    const soon = new Date(Date.now() + 1000).toISOString();
    expectStatus(
      await api(t.app, owner.cookie, 'PUT', `/${ns}/shares/${s.id}`, { expirationTime: soon }),
      200,
    );
    await new Promise((r) => setTimeout(r, 1100));
    expect((await api(t.app, guest.cookie, 'GET', '/api/devices')).statusCode).toBe(401);
    expect((await guestLogin(t, s.token)).status).toBe(401);
  });

  it('a group can be shared; the guest sees the group’s devices', async () => {
    const g = await createObject(t, 'groups', { name: 'Share group' });
    await link(t, { userId: owner.id, groupId: g.id });
    const d = (await createDevice(t)) as { id: number };
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}`, { ...d, groupId: g.id }), 200);
    const s = expectStatus<ShareRecord>(
      await create(owner.cookie, { groupId: g.id, expirationTime: inHours(1) }),
      200,
    );
    expect(s).toMatchObject({ groupId: g.id, deviceId: null, name: 'Share group' });
    const guest = await guestLogin(t, s.token);
    const devices = expectStatus<Array<{ id: number }>>(
      await api(t.app, guest.cookie, 'GET', '/api/devices'),
      200,
    );
    expect(devices.map((x) => x.id)).toEqual([d.id]);
  });

  it('bad input answers 400 in the caller’s language and creates nothing', async () => {
    const before = await count(t.ctx.store.sql, 'shares');
    const cases: Array<[unknown, string]> = [
      [{ expirationTime: inHours(1) }, 'share.targetRequired'],
      [{ deviceId: device.id, groupId: 1, expirationTime: inHours(1) }, 'share.targetRequired'],
      [{ deviceId: 'x', expirationTime: inHours(1) }, 'share.targetRequired'],
      [{ deviceId: device.id, expirationTime: 'tomorrow' }, 'share.expiryInvalid'],
      [{ deviceId: device.id, expirationTime: inHours(-1) }, 'share.expiryPast'],
      [{ deviceId: device.id }, 'share.expiryInvalid'],
      [null, 'share.targetRequired'],
    ];
    for (const [body, key] of cases) {
      for (const lang of ['pt-BR', 'es'] as const) {
        const res = await create(owner.cookie, body, lang);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.body).toContain(formatMessage(key as 'share.expiryPast', lang));
      }
    }
    const put = await t.app.inject({
      method: 'PUT',
      url: `/${ns}/shares/999999`,
      headers: { cookie: owner.cookie, 'accept-language': 'es', 'content-type': 'application/json' },
      payload: JSON.stringify({ expirationTime: inHours(1) }),
    });
    expect(put.statusCode).toBe(404);
    expect(put.body).toContain(formatMessage('share.notFound', 'es'));
    expect(await count(t.ctx.store.sql, 'shares')).toBe(before);
  });

  it('a device the caller does not see cannot be shared', async () => {
    const foreign = await createDevice(t);
    const res = await create(owner.cookie, { deviceId: foreign.id, expirationTime: inHours(1) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Device access denied');
  });

  it('users see their own links, a manager also its users’, the administrator all; others get 404', async () => {
    const other = await createUser(t);
    const d2 = await createDevice(t);
    await link(t, { userId: other.id, deviceId: d2.id });
    const theirs = expectStatus<ShareRecord>(
      await create(other.cookie, { deviceId: d2.id, expirationTime: inHours(1) }),
      200,
    );
    const mine = expectStatus<ShareRecord[]>(await api(t.app, owner.cookie, 'GET', `/${ns}/shares`), 200);
    expect(mine.map((x) => x.id)).not.toContain(theirs.id);
    expect((await api(t.app, owner.cookie, 'DELETE', `/${ns}/shares/${theirs.id}`)).statusCode).toBe(404);
    expect(
      (await api(t.app, owner.cookie, 'PUT', `/${ns}/shares/${theirs.id}`, { expirationTime: inHours(9) }))
        .statusCode,
    ).toBe(404);
    expect((await guestLogin(t, theirs.token)).status).toBe(200);

    const manager = await createUser(t, { userLimit: 5 });
    await link(t, { userId: manager.id, managedUserId: other.id });
    const managed = expectStatus<ShareRecord[]>(
      await api(t.app, manager.cookie, 'GET', `/${ns}/shares`),
      200,
    );
    expect(managed.map((x) => x.id)).toContain(theirs.id);
    const all = expectStatus<ShareRecord[]>(await api(t.app, t.admin, 'GET', `/${ns}/shares`), 200);
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([theirs.id]));
    expect(all.length).toBeGreaterThan(managed.length);
  });

  it('a guest cannot list or create links; the server switch disableShare refuses new ones in the caller’s language', async () => {
    const s = expectStatus<ShareRecord>(
      await create(owner.cookie, { deviceId: device.id, expirationTime: inHours(1) }),
      200,
    );
    const guest = await guestLogin(t, s.token);
    expect((await api(t.app, guest.cookie, 'GET', `/${ns}/shares`)).statusCode).toBe(403);
    expect((await create(guest.cookie, { deviceId: device.id, expirationTime: inHours(1) })).statusCode).toBe(
      403,
    );

    const server = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...server,
        attributes: { ...server.attributes, disableShare: true },
      }),
      200,
    );
    const res = await create(owner.cookie, { deviceId: device.id, expirationTime: inHours(1) }, 'pt-BR');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(formatMessage('share.disabled', 'pt-BR'));
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', server), 200);
  });

  it('no session: 401', async () => {
    expect((await api(t.app, null, 'GET', `/${ns}/shares`)).statusCode).toBe(401);
  });
});

describe('/{ns}/shares on a basic server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({}, { RASTRO_EDITION: 'basic' });
  });
  afterAll(async () => t.close());

  it('is refused with the Plus message', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/${t.ctx.config.ns}/shares`,
      headers: { cookie: t.admin, 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(formatMessage('share.needsPlus', 'en-US'));
  });
});

describe('/{ns}/shares and a read-only user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('is refused (Write access denied) on both share APIs and nothing is written', async () => {
    const ro = await createUser(t, { readonly: true });
    const d = await createDevice(t);
    await link(t, { userId: ro.id, deviceId: d.id });
    const res = await api(t.app, ro.cookie, 'POST', `/${t.ctx.config.ns}/shares`, {
      deviceId: d.id,
      expirationTime: inHours(1),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Write access denied');
    const n = await count(t.ctx.store.sql, 'shares');
    expect(n).toBe(0);
    // a link made before the user became read-only can be neither extended nor revoked by it
    await update(t.ctx.store.sql, 'users', { readonly: 0 }, { id: ro.id });
    const made = await api(t.app, ro.cookie, 'POST', `/${t.ctx.config.ns}/shares`, {
      deviceId: d.id,
      expirationTime: inHours(1),
    });
    const id = (made.json() as { id: number }).id;
    await update(t.ctx.store.sql, 'users', { readonly: 1 }, { id: ro.id });
    const put = await api(t.app, ro.cookie, 'PUT', `/${t.ctx.config.ns}/shares/${id}`, {
      expirationTime: inHours(5),
    });
    expect(put.statusCode).toBe(400);
    expect((await api(t.app, ro.cookie, 'DELETE', `/${t.ctx.config.ns}/shares/${id}`)).statusCode).toBe(400);
    expect(await count(t.ctx.store.sql, 'shares')).toBe(1);
  });
});
