// The SMS API of the server settings (server/src/live/notificators/smsApi.ts): the three request shapes, and the
// sms channel using it end to end against a local fake provider (no SMS_HTTP_URL in the environment).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsApiRequest, smsApiSettings } from '../../src/live/notificators/smsApi.ts';
import { api, createUser, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

describe('SMS API request shapes', () => {
  const s = { url: 'https://sms.example/send', key: 'k1', refer: 'rastro', type: 'json' as const };
  it('json (default), post (form) and get (query)', () => {
    const json = smsApiRequest(s, '+5511999', 'Oi');
    expect(json.init.method).toBe('POST');
    expect(JSON.parse(json.init.body!)).toEqual({
      key: 'k1',
      to: '+5511999',
      message: 'Oi',
      refer: 'rastro',
    });
    const form = smsApiRequest({ ...s, type: 'post' }, '+5511999', 'Olá & tchau');
    expect(form.init.headers!['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(form.init.body))).toEqual({
      key: 'k1',
      to: '+5511999',
      message: 'Olá & tchau',
      refer: 'rastro',
    });
    const get = smsApiRequest({ ...s, type: 'get', refer: '' }, '+5511999', 'Oi');
    expect(get.init.method).toBe('GET');
    expect(Object.fromEntries(new URL(get.url).searchParams)).toEqual({
      key: 'k1',
      to: '+5511999',
      message: 'Oi',
    });
  });

  it('is off without an http(s) URL; an unknown type means json', () => {
    expect(smsApiSettings({}, 'rastro')).toBeNull();
    expect(smsApiSettings({ 'rastro.smsApiUrl': 'ftp://x' }, 'rastro')).toBeNull();
    expect(
      smsApiSettings({ 'rastro.smsApiUrl': 'http://x/s', 'rastro.smsApiType': 'soap' }, 'rastro')?.type,
    ).toBe('json');
  });
});

describe('the sms channel through the server settings', () => {
  let t: TestApp;
  let fake: Server;
  let url: string;
  const received: Array<{ method: string; url: string; body: string; type: string }> = [];

  beforeAll(async () => {
    fake = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => (body += String(c)));
      req.on('end', () => {
        received.push({
          method: req.method!,
          url: req.url!,
          body,
          type: String(req.headers['content-type'] ?? ''),
        });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/send`;
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => fake.close(r));
  });

  async function setSms(attrs: Record<string, unknown>) {
    const s = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', { ...s, attributes: { ...s.attributes, ...attrs } }),
      200,
    );
  }

  it('is listed once the URL is set and delivers an administrator’s direct message in the chosen shape', async () => {
    const before = expectStatus<Array<{ type: string }>>(
      await api(t.app, t.admin, 'GET', '/api/notifications/notificators'),
      200,
    );
    expect(before.map((n) => n.type)).not.toContain('sms');
    await setSms({ 'rastro.smsApiUrl': url, 'rastro.smsApiKey': 'segredo', 'rastro.smsApiType': 'post' });
    const after = expectStatus<Array<{ type: string }>>(
      await api(t.app, t.admin, 'GET', '/api/notifications/notificators'),
      200,
    );
    expect(after.map((n) => n.type)).toContain('sms');

    const u = await createUser(t, { phone: '+5511988887777' });
    const res = await api(t.app, t.admin, 'POST', `/api/notifications/send/sms?userId=${u.id}`, {
      subject: '',
      body: 'Veículo bloqueado',
    });
    expect(res.statusCode, res.body).toBe(204);
    const last = received.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.type).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(last.body))).toEqual({
      key: 'segredo',
      to: '+5511988887777',
      message: 'Veículo bloqueado',
    });

    await setSms({ 'rastro.smsApiType': 'get', 'rastro.smsApiRefer': 'frota' });
    expect(
      (await api(t.app, t.admin, 'POST', `/api/notifications/send/sms?userId=${u.id}`, { body: 'Oi' }))
        .statusCode,
    ).toBe(204);
    const get = received.at(-1)!;
    expect(get.method).toBe('GET');
    expect(Object.fromEntries(new URL(get.url, 'http://x').searchParams)).toEqual({
      key: 'segredo',
      to: '+5511988887777',
      message: 'Oi',
      refer: 'frota',
    });
  });
});
