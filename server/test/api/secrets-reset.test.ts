// Secrets in the server settings and the password-reset link (issue #10 findings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicUrlOf } from '../../src/config.ts';
import { recoverLink } from '../../src/traccar/password.ts';
import { getMailer } from '../../src/traccar/mailer.ts';
import { api, createUser, expectStatus, makeTestApp, postForm, type TestApp } from '../helpers/index.ts';

type ServerJson = { attributes: Record<string, unknown>; bingKey: string | null } & Record<string, unknown>;

describe('server secrets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    const server = expectStatus<ServerJson>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...server,
        bingKey: 'bing-browser-key',
        attributes: {
          ...server.attributes,
          'rastro.smsApiKey': 'sms-secret-123',
          'rastro.smsApiUrl': 'https://sms.example.com/send?user=me&pass=p4ss',
          'rastro.smsApiRefer': 'ref-9',
          'rastro.googleKey': 'google-browser-key',
          'custom.webhookSecret': 'whs-1',
          'partner.apiKey': 'pk-2',
          speedUnit: 'kmh',
        },
      }),
      200,
    );
  });
  afterAll(() => t.close());

  it('finding: GET /api/server without a session returns no SMS key, no map key, no other secret', async () => {
    const anon = expectStatus<ServerJson>(await api(t.app, null, 'GET', '/api/server'), 200);
    const text = JSON.stringify(anon);
    for (const secret of [
      'sms-secret-123',
      'p4ss',
      'ref-9',
      'google-browser-key',
      'bing-browser-key',
      'whs-1',
      'pk-2',
    ])
      expect(text).not.toContain(secret);
    expect(anon.attributes.speedUnit).toBe('kmh'); // ordinary settings still there
  });

  it('a signed-in non-admin gets the map keys its map needs, never the SMS or other secrets', async () => {
    const u = await createUser(t);
    const mine = expectStatus<ServerJson>(await api(t.app, u.cookie, 'GET', '/api/server'), 200);
    expect(mine.attributes['rastro.googleKey']).toBe('google-browser-key');
    expect(mine.bingKey).toBe('bing-browser-key');
    const text = JSON.stringify(mine);
    for (const secret of ['sms-secret-123', 'p4ss', 'ref-9', 'whs-1', 'pk-2'])
      expect(text).not.toContain(secret);
  });

  it('an administrator reads every value, and saving the settings back keeps them', async () => {
    const all = expectStatus<ServerJson>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expect(all.attributes).toMatchObject({ 'rastro.smsApiKey': 'sms-secret-123', 'partner.apiKey': 'pk-2' });
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', all), 200);
    const again = expectStatus<ServerJson>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expect(again.attributes['rastro.smsApiKey']).toBe('sms-secret-123');
  });
});

describe('password-reset link', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ publicUrl: 'https://rastro.example.com' });
  });
  afterAll(() => t.close());

  const lastMail = () => getMailer(t.ctx).outbox.at(-1)!.body;

  it('finding: the mailed link is PUBLIC_URL + /login/recover/{token}, an app route', async () => {
    const u = await createUser(t);
    expect((await postForm(t.app, null, '/api/password/reset', { email: u.email })).statusCode).toBe(200);
    expect(lastMail()).toMatch(/https:\/\/rastro\.example\.com\/login\/recover\/[A-Za-z0-9_-]{20,}/);
    expect(lastMail()).not.toContain('reset-password');
  });

  it('finding: neither requested_from nor the Host or Origin header can point the link at another site', async () => {
    const u = await createUser(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/session/password',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        host: 'evil.example.net',
        origin: 'https://evil.example.net',
      },
      payload: new URLSearchParams({ email: u.email, requested_from: 'https://evil.example.net' }).toString(),
    });
    expect(lastMail()).toContain('https://rastro.example.com/login/recover/');
    expect(lastMail()).not.toContain('evil');
    await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'evil.example.net' },
      payload: new URLSearchParams({ email: u.email }).toString(),
    });
    expect(lastMail()).toContain('https://rastro.example.com/login/recover/');
  });

  it('recoverLink and PUBLIC_URL defaults', () => {
    expect(recoverLink('https://a.example', 'tok')).toBe('https://a.example/login/recover/tok');
    expect(recoverLink('https://a.example', 'tok', 'https://a.example/sub/')).toBe(
      'https://a.example/sub/login/recover/tok',
    );
    expect(recoverLink('https://a.example', 'tok', 'https://b.example/sub')).toBe(
      'https://a.example/login/recover/tok',
    );
    expect(recoverLink('https://a.example', 'tok', 'not a url')).toBe('https://a.example/login/recover/tok');
    expect(publicUrlOf(undefined, '127.0.0.1', 8082)).toBe('http://localhost:8082');
    expect(publicUrlOf(undefined, '0.0.0.0', 80)).toBe('http://localhost:80');
    expect(publicUrlOf(undefined, 'fleet.lan', 8082)).toBe('http://fleet.lan:8082');
    expect(publicUrlOf('https://x.example/app/', '127.0.0.1', 8082)).toBe('https://x.example/app');
  });
});
