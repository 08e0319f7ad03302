// Resellers (SPEC §3 "Reseller: domain, limit, can create resellers", §6; packages/domain reseller.ts;
// server/src/traccar/resellers.ts): the subtree a reseller sees and manages, its limits counting that subtree,
// sub-resellers, who may give limits and reseller settings, the domain checks, and the branding its domain selects
// on the login page. Every refusal is asked directly of the API as the refused role.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTheme, formatMessage } from '@rastro/domain';
import {
  api,
  createUser,
  expectStatus,
  login,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { update } from '../support/testSql.ts';

type UserJson = { id: number; attributes: Record<string, unknown> } & Record<string, unknown>;

const text = (key: Parameters<typeof formatMessage>[0], lang: 'en-US' | 'pt-BR' = 'en-US') =>
  formatMessage(key, lang);
const resellerAttrs = (domain: string, canCreate = false) => ({
  'rastro.reseller': true,
  ...(domain ? { 'rastro.resellerDomain': domain } : {}),
  ...(canCreate ? { 'rastro.resellerCanCreate': true } : {}),
});

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

function call(
  cookie: string,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { cookie, 'accept-language': 'en-US', ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}
const read = async (cookie: string, id: number) =>
  expectStatus<UserJson>(await api(t.app, cookie, 'GET', `/api/users/${id}`), 200);
const listIds = async (cookie: string) =>
  expectStatus<UserJson[]>(await api(t.app, cookie, 'GET', '/api/users'), 200)
    .map((u) => u.id)
    .sort((a, b) => a - b);
const newDevice = (cookie: string) =>
  call(cookie, 'POST', '/api/devices', { name: `Truck ${Math.random()}`, uniqueId: `rs-${Math.random()}` });

describe('a reseller and its subtree', () => {
  let reseller: CreatedUser; // userLimit 3, deviceLimit 2, may create resellers, domain frota.example.com
  let sub: CreatedUser; // sub-reseller made by the reseller: userLimit 3, deviceLimit 2
  let customer: CreatedUser; // made by the sub-reseller
  let manager: CreatedUser; // a plain manager elsewhere
  beforeAll(async () => {
    reseller = await createUser(t, {
      userLimit: 3,
      deviceLimit: 2,
      attributes: resellerAttrs('frota.example.com', true),
    });
    manager = await createUser(t, { userLimit: 5 });
  });

  it('a reseller gives a sub-reseller limits within its own; beyond them is refused (403) and nothing is made', async () => {
    const before = await listIds(t.admin);
    const tooMany = await call(reseller.cookie, 'POST', '/api/users', {
      name: 'Sub Reseller',
      email: 'sub-too-many@example.com',
      password: 'secret',
      userLimit: 4,
      deviceLimit: 2,
      attributes: resellerAttrs(''),
    });
    expect(tooMany.statusCode).toBe(403);
    expect(tooMany.body).toContain('userLimit');
    const unlimited = await call(reseller.cookie, 'POST', '/api/users', {
      name: 'Sub Reseller',
      email: 'sub-unlimited@example.com',
      password: 'secret',
      userLimit: 3,
      deviceLimit: -1,
      attributes: resellerAttrs(''),
    });
    expect(unlimited.statusCode).toBe(403);
    expect(unlimited.body).toContain('deviceLimit');
    expect(await listIds(t.admin)).toEqual(before);

    sub = await createUser(
      t,
      { userLimit: 3, deviceLimit: 2, attributes: resellerAttrs('') },
      reseller.cookie,
    );
    const stored = await read(t.admin, sub.id);
    expect(stored).toMatchObject({ userLimit: 3, deviceLimit: 2 });
    expect(stored.attributes['rastro.reseller']).toBe(true);
  });

  it('a sub-reseller that may not create resellers can neither make one nor give a user limit', async () => {
    const asReseller = await call(sub.cookie, 'POST', '/api/users', {
      name: 'Third Level',
      email: 'third-level@example.com',
      password: 'secret',
      userLimit: 1,
      attributes: resellerAttrs(''),
    });
    expect(asReseller.statusCode).toBe(403);
    const flagOnly = await call(sub.cookie, 'POST', '/api/users', {
      name: 'Third Level',
      email: 'third-level@example.com',
      password: 'secret',
      attributes: resellerAttrs(''),
    });
    expect(flagOnly.statusCode).toBe(403);
    expect(flagOnly.body).toContain('rastro.reseller');
    // a device limit within its own is fine
    customer = await createUser(t, { deviceLimit: 2 }, sub.cookie);
    expect((await read(t.admin, customer.id)).deviceLimit).toBe(2);
  });

  it('the reseller lists, reads, edits and impersonates its whole subtree; the sub-reseller only its own part', async () => {
    expect(await listIds(reseller.cookie)).toEqual([sub.id, customer.id].sort((a, b) => a - b));
    expect(await listIds(sub.cookie)).toEqual([customer.id]);
    const c = await read(reseller.cookie, customer.id);
    const edited = await call(reseller.cookie, 'PUT', `/api/users/${customer.id}`, {
      ...c,
      name: 'Cliente Final',
    });
    expect(edited.statusCode).toBe(200);
    expect((await read(t.admin, customer.id)).name).toBe('Cliente Final');
    // impersonation switches the session it is asked on: a session of its own
    const second = await login(t.app, reseller.email, reseller.password);
    const as = await call(second, 'GET', `/api/session/${customer.id}`);
    expect(as.statusCode).toBe(200);
    expect((as.json() as { id: number }).id).toBe(customer.id);
  });

  it('outside the subtree: another manager and the sub-reseller cannot reach the reseller or its users', async () => {
    expect((await call(manager.cookie, 'GET', `/api/users/${customer.id}`)).statusCode).toBe(400);
    expect((await call(sub.cookie, 'GET', `/api/users/${reseller.id}`)).statusCode).toBe(400);
    expect((await call(manager.cookie, 'GET', `/api/session/${sub.id}`)).statusCode).toBe(400);
    expect(await listIds(manager.cookie)).toEqual([]);
  });

  it("the reseller's userLimit counts its whole subtree: the third user below it is the last one", async () => {
    await createUser(t, {}, sub.cookie); // subtree: sub, customer, this one = 3
    const refused = await call(sub.cookie, 'POST', '/api/users', {
      name: 'One Too Many',
      email: 'one-too-many@example.com',
      password: 'secret',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toBe(`SecurityException: ${text('validation.userLimitReached')}`);
    const pt = await call(
      sub.cookie,
      'POST',
      '/api/users',
      { name: 'One Too Many', email: 'one-too-many@example.com', password: 'secret' },
      { 'accept-language': 'pt-BR' },
    );
    expect(pt.body).toBe(`SecurityException: ${text('validation.userLimitReached', 'pt-BR')}`);
  });

  it("the reseller's deviceLimit (2) counts devices anywhere in its subtree", async () => {
    expect((await newDevice(customer.cookie)).statusCode).toBe(200);
    expect((await newDevice(sub.cookie)).statusCode).toBe(200);
    const third = await newDevice(customer.cookie);
    expect(third.statusCode).toBe(403);
    expect(third.body).toBe(`SecurityException: ${text('validation.deviceLimitReached')}`);
    expect((await newDevice(reseller.cookie)).statusCode).toBe(403);
    // an unrelated user with its own limit is not affected
    const other = await createUser(t, { deviceLimit: 1 });
    expect((await newDevice(other.cookie)).statusCode).toBe(200);
  });

  it('nobody changes its own reseller settings or limits; a plain manager gives no limits', async () => {
    const self = await read(reseller.cookie, reseller.id);
    const ownDomain = await call(reseller.cookie, 'PUT', `/api/users/${reseller.id}`, {
      ...self,
      attributes: { ...self.attributes, 'rastro.resellerDomain': 'other.example.com' },
    });
    expect(ownDomain.statusCode).toBe(403);
    const ownLimit = await call(reseller.cookie, 'PUT', `/api/users/${reseller.id}`, {
      ...self,
      userLimit: 9,
    });
    expect(ownLimit.statusCode).toBe(400);
    expect(ownLimit.body).toContain('Administrator access required');
    const plain = await call(manager.cookie, 'POST', '/api/users', {
      name: 'Plain Sub',
      email: 'plain-sub@example.com',
      password: 'secret',
      deviceLimit: 3,
    });
    expect(plain.statusCode).toBe(400);
    expect((await read(t.admin, reseller.id)).attributes['rastro.resellerDomain']).toBe('frota.example.com');
  });
});

describe('reseller settings checked on every write', () => {
  it('a bad domain, a domain already taken and a reseller without user limit are 400 in the caller’s language', async () => {
    const bad = await call(t.admin, 'POST', '/api/users', {
      name: 'Bad Domain',
      email: 'bad-domain@example.com',
      password: 'secret',
      userLimit: -1,
      attributes: resellerAttrs('http://frota/x'),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toBe(`IllegalArgumentException: ${text('validation.resellerDomain')}`);
    await createUser(t, { userLimit: -1, attributes: resellerAttrs('taken.example.com') });
    const taken = await call(
      t.admin,
      'POST',
      '/api/users',
      {
        name: 'Taken Domain',
        email: 'taken-domain@example.com',
        password: 'secret',
        userLimit: -1,
        attributes: resellerAttrs('Taken.Example.com'),
      },
      { 'accept-language': 'pt-BR' },
    );
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toBe(`IllegalArgumentException: ${text('validation.resellerDomainTaken', 'pt-BR')}`);
    const noLimit = await call(t.admin, 'POST', '/api/users', {
      name: 'No Limit',
      email: 'no-limit@example.com',
      password: 'secret',
      userLimit: 0,
      attributes: resellerAttrs(''),
    });
    expect(noLimit.statusCode).toBe(400);
    expect(noLimit.body).toBe(`IllegalArgumentException: ${text('validation.resellerNeedsUserLimit')}`);
  });

  it('self-registration cannot make a reseller', async () => {
    await update(t.ctx.store.sql, 'server', { registration: 1 }, { id: 1 });
    try {
      const res = await call('', 'POST', '/api/users', {
        name: 'Self Reseller',
        email: 'self-reseller@example.com',
        password: 'secret',
        attributes: resellerAttrs('self.example.com'),
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await update(t.ctx.store.sql, 'server', { registration: 0 }, { id: 1 });
    }
  });
});

describe('branding by domain (login page)', () => {
  const config = async (host: string) =>
    (
      await t.app.inject({ method: 'GET', url: '/rastro/assets/custom/config.json', headers: { host } })
    ).json() as {
      title: string;
      colors: { primary: string };
    };
  const putTheme = (cookie: string, title: string, primary: string) => {
    const body = defaultTheme();
    body.title = title;
    body.colors.primary = primary;
    return call(cookie, 'PUT', '/rastro/theme', body);
  };

  it("a reseller saves its domain's theme; its domain shows it, every other host keeps the server's", async () => {
    expect((await putTheme(t.admin, 'Rastro Central', '#1c7ed6')).statusCode).toBe(200);
    const r = await createUser(t, { userLimit: 2, attributes: resellerAttrs('rastreio.revenda.example') });
    const saved = await putTheme(r.cookie, 'Revenda Sul', '#e8590c');
    expect(saved.statusCode).toBe(200);
    expect((saved.json() as { title: string }).title).toBe('Revenda Sul');

    expect(await config('rastreio.revenda.example')).toMatchObject({
      title: 'Revenda Sul',
      colors: { primary: '#e8590c' },
    });
    expect((await config('RASTREIO.revenda.example:8082')).title).toBe('Revenda Sul');
    expect(await config('localhost:8082')).toMatchObject({
      title: 'Rastro Central',
      colors: { primary: '#1c7ed6' },
    });
    expect((await config('other.example.com')).title).toBe('Rastro Central');
  });

  it('a domain whose reseller is gone, or no longer a reseller, falls back to the server theme', async () => {
    const r = await createUser(t, { userLimit: 2, attributes: resellerAttrs('gone.example.com') });
    expect((await putTheme(r.cookie, 'Gone Soon', '#2f9e44')).statusCode).toBe(200);
    expect((await config('gone.example.com')).title).toBe('Gone Soon');
    const u = await read(t.admin, r.id);
    expect((await call(t.admin, 'PUT', `/api/users/${r.id}`, { ...u, attributes: {} })).statusCode).toBe(200);
    expect((await config('gone.example.com')).title).toBe('Rastro Central');
  });

  it('users that are not resellers with a domain cannot write a theme', async () => {
    const plain = await createUser(t);
    expect((await putTheme(plain.cookie, 'Nope', '#000000')).statusCode).toBe(403);
    const noDomain = await createUser(t, { userLimit: 2, attributes: resellerAttrs('') });
    expect((await putTheme(noDomain.cookie, 'Nope', '#000000')).statusCode).toBe(403);
  });
});
