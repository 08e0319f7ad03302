// Issue #27, fail closed: a partial PUT of the server or of a user keeps its attributes and restrictions (lifting one
// takes an explicit change, which the audit log records); a password or e-mail change and an administrator's reset
// end the user's remember-me and API tokens and its other sessions; the assistant obeys the reports permission.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { formatMessage, NO_PERMISSIONS, setPermissionBit, permissionIndex } from '@rastro/domain';
import { getMailer } from '../../src/traccar/mailer.ts';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  login,
  makeTestApp,
  postForm,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';

type Obj = Record<string, unknown>;
const ADV = 'rastro.enableAdvancedPerms';
const PERMS = 'rastro.advancedPerms';
const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

/** Every bit but the one of `area` × `action`. */
function allBut(area: 'devices' | 'reports', action: 'lock' | 'view'): string {
  return setPermissionBit('f'.repeat(32), permissionIndex(area, action)!, false);
}

describe('issue #27: partial updates of the server and of users fail closed', () => {
  let t: TestApp;
  let sub: CreatedUser;
  let device: Obj & { id: number };
  const start = new Date(Date.now() - 60_000).toISOString();

  const getServer = async () => expectStatus<Obj>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
  const engineStop = () =>
    api(t.app, sub.cookie, 'POST', '/api/commands/send', {
      id: 0,
      deviceId: device.id,
      type: 'engineStop',
      attributes: {},
    });
  const lifts = async () => {
    const to = new Date(Date.now() + 60_000).toISOString();
    const actions = expectStatus<Obj[]>(
      await api(
        t.app,
        t.admin,
        'GET',
        `/api/audit?from=${encodeURIComponent(start)}&to=${encodeURIComponent(to)}`,
      ),
      200,
    );
    return actions.filter((a) => a.actionType === 'liftRestriction');
  };

  beforeAll(async () => {
    t = await makeTestApp();
    const s = await getServer();
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...s,
        attributes: { ...(s.attributes as Obj), [ADV]: true, keepMe: 'yes' },
      }),
      200,
    );
    sub = await createUser(t, { attributes: { [PERMS]: allBut('devices', 'lock'), theme: 'dark' } });
    device = await createDevice(t, { name: 'Fail-closed car' });
    await link(t, { userId: sub.id, deviceId: device.id });
  });
  afterAll(async () => t.close());

  it('PUT /api/server without attributes keeps enableAdvancedPerms: engineStop stays 403, nothing is audited', async () => {
    expect((await engineStop()).statusCode).toBe(403);
    const { attributes: _dropped, ...withoutAttributes } = await getServer();
    const res = await api(t.app, t.admin, 'PUT', '/api/server', {
      ...withoutAttributes,
      announcement: 'partial',
    });
    const after = expectStatus<Obj>(res, 200);
    expect(after.announcement).toBe('partial');
    expect(after.attributes).toMatchObject({ [ADV]: true, keepMe: 'yes' });
    expect((await engineStop()).statusCode).toBe(403);
    expect(await lifts()).toEqual([]);
  });

  it('PUT /api/server without a restriction flag keeps it; sending false lifts it and is audited', async () => {
    const s = await getServer();
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...s, limitCommands: true }), 200);
    const { limitCommands: _flag, ...withoutFlag } = await getServer();
    expect(
      expectStatus<Obj>(await api(t.app, t.admin, 'PUT', '/api/server', withoutFlag), 200),
    ).toMatchObject({ limitCommands: true });
    expect(await lifts()).toEqual([]);
    const cleared = expectStatus<Obj>(
      await api(t.app, t.admin, 'PUT', '/api/server', { ...withoutFlag, limitCommands: false }),
      200,
    );
    expect(cleared.limitCommands).toBe(false);
    const entries = await lifts();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      userId: 1,
      objectType: 'server',
      objectId: 1,
      attributes: { lifted: ['limitCommands'] },
    });
  });

  it('an explicit attributes object without enableAdvancedPerms lifts it, and the audit log says so', async () => {
    const before = (await lifts()).length;
    const s = await getServer();
    const { [ADV]: _adv, ...rest } = s.attributes as Obj;
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...s, attributes: rest }), 200);
    expect((await engineStop()).statusCode).not.toBe(403);
    const entries = await lifts();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({ objectType: 'server', attributes: { lifted: [ADV] } });
    // turned on again for the user tests below (turning it on lifts nothing)
    const again = await getServer();
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...again,
        attributes: { ...(again.attributes as Obj), [ADV]: true },
      }),
      200,
    );
    expect(await lifts()).toHaveLength(before + 1);
    expect((await engineStop()).statusCode).toBe(403);
  });

  it('PUT /api/users/{id} without attributes keeps them (and the advanced permissions): engineStop stays 403', async () => {
    const u = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${sub.id}`), 200);
    const before = (await lifts()).length;
    const { attributes: _a, ...withoutAttributes } = u;
    const after = expectStatus<Obj>(
      await api(t.app, t.admin, 'PUT', `/api/users/${sub.id}`, { ...withoutAttributes, phone: '123' }),
      200,
    );
    expect(after.phone).toBe('123');
    expect(after.attributes).toEqual({ [PERMS]: allBut('devices', 'lock'), theme: 'dark' });
    expect((await engineStop()).statusCode).toBe(403);
    expect(await lifts()).toHaveLength(before);
  });

  it('a self-edit without attributes keeps them too', async () => {
    const u = expectStatus<Obj>(await api(t.app, sub.cookie, 'GET', `/api/users/${sub.id}`), 200);
    const { attributes: _a, ...withoutAttributes } = u;
    const after = expectStatus<Obj>(
      await api(t.app, sub.cookie, 'PUT', `/api/users/${sub.id}`, { ...withoutAttributes, phone: '456' }),
      200,
    );
    expect(after.attributes).toMatchObject({ theme: 'dark', [PERMS]: allBut('devices', 'lock') });
  });

  it('PUT /api/users/{id} without disabled or readonly keeps them; granting bits or raising a limit is audited', async () => {
    const other = await createUser(t, {
      readonly: true,
      deviceLimit: 2,
      attributes: { [PERMS]: NO_PERMISSIONS },
    });
    const u = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${other.id}`), 200);
    const before = (await lifts()).length;
    const { readonly: _r, ...withoutReadonly } = u;
    expect(
      expectStatus<Obj>(await api(t.app, t.admin, 'PUT', `/api/users/${other.id}`, withoutReadonly), 200),
    ).toMatchObject({ readonly: true });
    expect(await lifts()).toHaveLength(before);
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/users/${other.id}`, {
        ...u,
        deviceLimit: 5,
        attributes: { [PERMS]: setPermissionBit(NO_PERMISSIONS, 8, true) },
      }),
      200,
    );
    const entries = await lifts();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({
      objectType: 'user',
      objectId: other.id,
      attributes: { lifted: ['deviceLimit', PERMS] },
    });
  });
});

describe('issue #27: a password or e-mail change ends remember-me and API tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  const tokenLogin = (token: string) =>
    api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
  const bearer = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } });
  const session = (cookie: string) => api(t.app, cookie, 'GET', '/api/session');

  /** A user with a remember-me token, an API token and a second browser session. */
  async function withTokens() {
    const u = await createUser(t);
    const remember = expectStatus<string>(
      await postForm(t.app, u.cookie, '/api/session/token', { expiration: inAMonth(), rememberMe: 'true' }),
      200,
    );
    const apiToken = expectStatus<string>(
      await postForm(t.app, u.cookie, '/api/session/token', { expiration: inAMonth() }),
      200,
    );
    const otherBrowser = await login(t.app, u.email, u.password);
    expect((await tokenLogin(remember)).statusCode).toBe(200);
    expect((await bearer(apiToken)).statusCode).toBe(200);
    return { u, remember, apiToken, otherBrowser };
  }

  async function expectAllEnded(c: Awaited<ReturnType<typeof withTokens>>) {
    expect((await tokenLogin(c.remember)).statusCode).toBe(401);
    expect((await bearer(c.apiToken)).statusCode).toBe(404); // GET /api/session: no user
    expect((await session(c.otherBrowser)).statusCode).toBe(404);
  }

  it('a user changing its own password: tokens and other sessions end, this session stays', async () => {
    const c = await withTokens();
    const me = expectStatus<Obj>(await api(t.app, c.u.cookie, 'GET', `/api/users/${c.u.id}`), 200);
    expectStatus(
      await api(t.app, c.u.cookie, 'PUT', `/api/users/${c.u.id}`, { ...me, password: 'new-secret-1' }),
      200,
    );
    await expectAllEnded(c);
    expect((await session(c.u.cookie)).statusCode).toBe(200);
    await login(t.app, c.u.email, 'new-secret-1');
  });

  it('a user changing its own e-mail: tokens and other sessions end, this session stays', async () => {
    const c = await withTokens();
    const me = expectStatus<Obj>(await api(t.app, c.u.cookie, 'GET', `/api/users/${c.u.id}`), 200);
    expectStatus(
      await api(t.app, c.u.cookie, 'PUT', `/api/users/${c.u.id}`, { ...me, email: `moved-${c.u.email}` }),
      200,
    );
    await expectAllEnded(c);
    expect((await session(c.u.cookie)).statusCode).toBe(200);
  });

  it('an edit that changes neither leaves tokens and sessions alone', async () => {
    const c = await withTokens();
    const me = expectStatus<Obj>(await api(t.app, c.u.cookie, 'GET', `/api/users/${c.u.id}`), 200);
    expectStatus(
      await api(t.app, c.u.cookie, 'PUT', `/api/users/${c.u.id}`, {
        ...me,
        email: String(me.email).toUpperCase(),
        name: 'Renamed',
      }),
      200,
    );
    expect((await tokenLogin(c.remember)).statusCode).toBe(200);
    expect((await bearer(c.apiToken)).statusCode).toBe(200);
    expect((await session(c.otherBrowser)).statusCode).toBe(200);
  });

  it("an administrator's reset of another user's password ends all of that user's tokens and sessions", async () => {
    const c = await withTokens();
    const u = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${c.u.id}`), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/users/${c.u.id}`, { ...u, password: 'reset-by-admin' }),
      200,
    );
    await expectAllEnded(c);
    expect((await session(c.u.cookie)).statusCode).toBe(404);
    expect((await session(t.admin)).statusCode).toBe(200);
  });

  it('a password set through the mailed reset link ends every token and session of the user', async () => {
    const c = await withTokens();
    const mailer = getMailer(t.ctx);
    expectStatus(await postForm(t.app, null, '/api/password/reset', { email: c.u.email }), 200);
    const token = /\/login\/recover\/([^\s&]+)/.exec(mailer.outbox.at(-1)!.body)![1];
    expectStatus(
      await postForm(t.app, null, '/api/password/update', {
        token: decodeURIComponent(token),
        password: 'from-the-link',
      }),
      200,
    );
    await expectAllEnded(c);
    expect((await session(c.u.cookie)).statusCode).toBe(404);
  });
});

describe("issue #27: an administrator's reset closes the user's open sockets", () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await makeTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/socket`;
  });
  afterAll(async () => t.close());

  it('the socket of a session the reset ended is closed as signed out (4001)', async () => {
    const u = await createUser(t);
    const ws = new WebSocket(url, { headers: { cookie: u.cookie } });
    await new Promise<void>((ok, ko) => {
      ws.once('open', () => ok());
      ws.once('error', ko);
    });
    const closed = new Promise<number>((ok) => ws.once('close', (code) => ok(code)));
    const row = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/users/${u.id}`), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/users/${u.id}`, { ...row, password: 'reset-by-admin' }),
      200,
    );
    expect(await closed).toBe(4001);
  });
});

describe('issue #27: the assistant obeys the reports permission', () => {
  let t: TestApp;
  let car: Obj & { id: number; name: string };
  beforeAll(async () => {
    t = await makeTestApp();
    const s = expectStatus<Obj>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...s,
        attributes: { ...(s.attributes as Obj), [ADV]: true },
      }),
      200,
    );
    car = await createDevice(t, { name: 'Kombi 27' });
  });
  afterAll(async () => t.close());

  const SPAN = 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z';
  const ask = (cookie: string, text: string, lang = 'pt-BR') =>
    t.app.inject({
      method: 'POST',
      url: '/rastro/assistant',
      headers: { cookie, 'accept-language': lang, 'content-type': 'application/json' },
      payload: JSON.stringify({ text }),
    });
  const summary = (u: CreatedUser, lang = 'pt-BR') =>
    t.app.inject({
      method: 'GET',
      url: `/api/reports/summary?deviceId=${car.id}&${SPAN}`,
      headers: { cookie: u.cookie, 'accept-language': lang, accept: 'application/json' },
    });

  async function userWith(fields: Obj) {
    const u = await createUser(t, fields);
    await link(t, { userId: u.id, deviceId: car.id });
    return u;
  }

  it('reports.view denied: km today and who sped get the refusal the summary report gives', async () => {
    const u = await userWith({ attributes: { [PERMS]: allBut('reports', 'view') } });
    const refusal = await summary(u);
    expect(refusal.statusCode).toBe(403);
    for (const text of ['Quantos km o Kombi 27 rodou hoje?', 'Quem excedeu a velocidade esta semana?']) {
      const res = await ask(u.cookie, text);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).toBe(refusal.body);
    }
    const es = await ask(u.cookie, '¿Quién excedió la velocidad esta semana?', 'es');
    expect(es.body).toBe((await summary(u, 'es')).body);
    // the live map's data stays: where is, who is offline
    expect((await ask(u.cookie, 'Onde está o Kombi 27?')).statusCode).toBe(200);
    expect((await ask(u.cookie, 'Quais veículos estão offline?')).statusCode).toBe(200);
  });

  it('disableReports on the user: km today and who sped are refused in the caller language', async () => {
    const u = await userWith({ disableReports: true });
    expect((await summary(u)).statusCode).not.toBe(200);
    for (const lang of ['pt-BR', 'es', 'en-US'] as const) {
      for (const text of [
        'How many km did Kombi 27 drive today?',
        'Who exceeded the speed limit this week?',
      ]) {
        const res = await ask(u.cookie, text, lang);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.body).toBe(`SecurityException: ${formatMessage('denied.reportsDisabled', lang)}`);
      }
    }
    expect((await ask(u.cookie, 'Where is Kombi 27?', 'en-US')).statusCode).toBe(200);
  });

  it('disableReports on the server refuses every non-admin; the administrator still gets answers', async () => {
    const u = await userWith({});
    expect((await ask(u.cookie, 'Quantos km o Kombi 27 rodou hoje?')).statusCode).toBe(200);
    const s = expectStatus<Obj>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...s, disableReports: true }), 200);
    try {
      expect((await ask(u.cookie, 'Quantos km o Kombi 27 rodou hoje?')).statusCode).toBe(403);
      expect((await ask(u.cookie, 'Quem excedeu a velocidade hoje?')).statusCode).toBe(403);
      expect((await ask(t.admin, 'Quantos km o Kombi 27 rodou hoje?')).statusCode).toBe(200);
    } finally {
      expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...s, disableReports: false }), 200);
    }
  });
});
