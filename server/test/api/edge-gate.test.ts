// Issue #27 (the edge finished): roles checked by the gate (administrator, manager), the translated-400 hook, bad
// input on converted routes (400, never 500), and what user answers hide (docs/security.md "User answers": the
// TOTP secret is answered to its user only, and an edit by anyone else keeps it unless an administrator clears it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import { api, createUser, expectStatus, login, makeTestApp, type TestApp } from '../helpers/index.ts';

const KEY = 'JBSWY3DPEHPK3PXP';
const SPAN = 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z';
type Json = Record<string, unknown>;

describe('the edge: roles, translated 400s, user answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ edition: 'plus' });
  });
  afterAll(async () => t.close());

  it('administrator routes: 401 without a caller, then 400 "Administrator access required" before bad input', async () => {
    const user = await createUser(t);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/audit?${SPAN}`],
      ['GET', `/api/statistics?${SPAN}`],
      ['GET', '/api/ssl/check'],
      ['POST', '/api/server/reboot', {}],
      ['PUT', '/api/server', { id: 1, attributes: {} }],
      ['GET', `/${t.ctx.config.ns}/server/logs?${SPAN}`],
    ];
    for (const [method, url, body] of routes) {
      expect((await api(t.app, null, method as 'GET', url, body)).statusCode, url).toBe(401);
      const res = await api(t.app, user.cookie, method as 'GET', url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toBe('SecurityException: Administrator access required');
    }
    // the role is refused before the query is read
    const bad = await api(t.app, user.cookie, 'GET', '/api/audit?from=yesterday');
    expect(bad.body).toBe('SecurityException: Administrator access required');
    const admin = await api(t.app, t.admin, 'GET', '/api/audit?from=yesterday');
    expect(admin.statusCode).toBe(400);
    expect(admin.body).toContain('from');
  });

  it('a manager route: "Manager access required" for a plain user, from the gate', async () => {
    const user = await createUser(t);
    const res = await api(t.app, user.cookie, 'POST', '/api/notifications/send/web', { body: 'hello' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Manager access required');
  });

  it('bad input on converted routes: a string id, a JSON login, a huge body, a bad query (400/415/413, never 500)', async () => {
    for (const url of ['/api/users/abc', '/api/session/abc']) {
      const res = await api(t.app, t.admin, 'GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toContain('invalid id "abc"');
    }
    const json = await api(t.app, null, 'POST', '/api/session', { email: 'admin', password: 'admin' });
    expect(json.statusCode).toBe(415);
    const huge = await t.app.inject({
      method: 'PUT',
      url: '/api/server',
      headers: { cookie: t.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: 1, announcement: 'x'.repeat(9 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    const geo = await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=x');
    expect(geo.statusCode).toBe(400);
    expect(geo.body).toBe('IllegalArgumentException: latitude is required');
  });

  it('the translated-400 hook answers the catalogue message in the caller language', async () => {
    const ns = t.ctx.config.ns;
    const ask = await t.app.inject({
      method: 'POST',
      url: `/${ns}/assistant`,
      headers: { cookie: t.admin, 'accept-language': 'es' },
      payload: { text: '' },
    });
    expect(ask.statusCode).toBe(400);
    expect(ask.body).toBe(`IllegalArgumentException: ${formatMessage('validation.required', 'es')}`);
    const link = await t.app.inject({
      method: 'POST',
      url: `/${ns}/autolink`,
      headers: { cookie: t.admin, 'accept-language': 'en-US' },
      payload: { uniqueId: '!!', name: 'x' },
    });
    expect(link.statusCode).toBe(400);
    expect(link.body).toBe(
      `IllegalArgumentException: ${formatMessage('autolink.identifierInvalid', 'en-US')}`,
    );
  });

  it('totpKey: answered to its user only; the official round trip keeps it; an administrator clears it with "" (audited)', async () => {
    const manager = await createUser(t, { userLimit: 5 });
    const user = await createUser(t, {}, manager.cookie);
    const url = `/api/users/${user.id}`;
    const own = expectStatus<Json>(await api(t.app, user.cookie, 'GET', url), 200);
    expectStatus(await api(t.app, user.cookie, 'PUT', url, { ...own, totpKey: KEY }), 200);
    const storedKey = async () => expectStatus<Json>(await api(t.app, user.cookie, 'GET', url), 200).totpKey;
    expect(await storedKey()).toBe(KEY);
    expect(expectStatus<Json>(await api(t.app, user.cookie, 'GET', '/api/session'), 200).totpKey).toBe(KEY);

    for (const viewer of [t.admin, manager.cookie]) {
      const one = expectStatus<Json>(await api(t.app, viewer, 'GET', url), 200);
      expect(one.totpKey).toBeNull();
      expect(one.password).toBeNull();
      const list = expectStatus<Json[]>(await api(t.app, viewer, 'GET', '/api/users'), 200);
      expect(list.find((u) => u.id === user.id)?.totpKey).toBeNull();
      // Traccar's web app sends the whole user back: the null it was given does not wipe the key
      const put = expectStatus<Json>(await api(t.app, viewer, 'PUT', url, { ...one, name: 'Renamed' }), 200);
      expect(put.totpKey).toBeNull();
      expect(await storedKey()).toBe(KEY);
      // a key left out is kept too
      const { totpKey: _left, ...rest } = one;
      expectStatus(await api(t.app, viewer, 'PUT', url, rest), 200);
      expect(await storedKey()).toBe(KEY);
    }
    // logging in as the user answers the user without the key
    const otherAdmin = await login(t.app, 'admin', 'admin');
    const loginAs = expectStatus<Json>(await api(t.app, otherAdmin, 'GET', `/api/session/${user.id}`), 200);
    expect(loginAs.totpKey).toBeNull();
    expect(expectStatus<Json>(await api(t.app, otherAdmin, 'GET', '/api/session'), 200).totpKey).toBeNull();

    // "" from a manager changes nothing; from an administrator it removes the key, recorded in the audit log
    const one = expectStatus<Json>(await api(t.app, manager.cookie, 'GET', url), 200);
    expectStatus(await api(t.app, manager.cookie, 'PUT', url, { ...one, totpKey: '' }), 200);
    expect(await storedKey()).toBe(KEY);
    expectStatus(await api(t.app, t.admin, 'PUT', url, { ...one, totpKey: '' }), 200);
    expect(await storedKey()).toBeNull();
    const to = new Date(Date.now() + 60_000).toISOString();
    const audit = expectStatus<Json[]>(
      await api(t.app, t.admin, 'GET', `/api/audit?from=2020-01-01T00:00:00Z&to=${to}`),
      200,
    );
    const lifted = audit.filter((a) => a.actionType === 'liftRestriction' && a.objectId === user.id);
    expect(lifted.map((a) => (a.attributes as { lifted: string[] }).lifted)).toEqual([['totpKey']]);
  });
});
