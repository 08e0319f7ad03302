import { describe, expect, it, vi } from 'vitest';
import {
  api,
  createClient,
  ext,
  HttpError,
  refusalMessage,
  serverMessage,
  toQueryString,
  API_TIMEOUT_MS,
  EXT_TIMEOUT_MS,
} from './http.ts';
import { setLocale } from '../i18n/index.ts';
import { fakeFetch, json, text } from '../components/testing.tsx';

describe('toQueryString', () => {
  it('repeats array values and skips null/undefined', () => {
    expect(
      toQueryString({ deviceId: [1, 2, 3], type: 'allEvents', daily: false, x: undefined, y: null }),
    ).toBe('?deviceId=1&deviceId=2&deviceId=3&type=allEvents&daily=false');
    expect(toQueryString({})).toBe('');
    expect(toQueryString()).toBe('');
  });
});

describe('the two clients of SPEC §7', () => {
  it('api: base /api, 60 s; ext: base /{ns}, 30 s', () => {
    expect(api.base).toBe('/api');
    expect(api.timeoutMs).toBe(API_TIMEOUT_MS);
    expect(API_TIMEOUT_MS).toBe(60_000);
    expect(ext.base).toBe('/rastro');
    expect(EXT_TIMEOUT_MS).toBe(30_000);
  });

  it('sends credentials, JSON bodies and parses JSON answers', async () => {
    const f = fakeFetch(() => json({ id: 7 }));
    const c = createClient({ base: '/api', timeoutMs: 1000, fetchImpl: () => f.fn });
    expect(await c.post('/devices', { name: 'A' }, { all: true })).toEqual({ id: 7 });
    expect(f.calls[0].url).toBe('/api/devices?all=true');
    expect(f.calls[0].init.method).toBe('POST');
    expect(f.calls[0].init.credentials).toBe('include');
    expect((f.calls[0].init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(f.calls[0].init.body).toBe('{"name":"A"}');
  });

  it('postForm sends application/x-www-form-urlencoded', async () => {
    const f = fakeFetch(() => text('tok123'));
    const c = createClient({ base: '/api', timeoutMs: 1000, fetchImpl: () => f.fn });
    expect(await c.postForm('/session/token', { expiration: '2027-01-01T00:00:00Z', skip: undefined })).toBe(
      'tok123',
    );
    const body = f.calls[0].init.body as URLSearchParams;
    expect(body).toBeInstanceOf(URLSearchParams);
    expect(body.toString()).toBe('expiration=2027-01-01T00%3A00%3A00Z');
  });

  it('accepts statuses under 400 (204 gives undefined, 202 the body)', async () => {
    const f = fakeFetch((url) =>
      url.endsWith('/a') ? new Response(null, { status: 204 }) : json({ q: 1 }, 202),
    );
    const c = createClient({ base: '/api', timeoutMs: 1000, fetchImpl: () => f.fn });
    expect(await c.del('/a')).toBeUndefined();
    expect(await c.get('/b')).toEqual({ q: 1 });
  });

  it('turns 4xx/5xx into HttpError {status, text}', async () => {
    const f = fakeFetch(() => text('SecurityException: Write access denied', 400));
    const c = createClient({ base: '/api', timeoutMs: 1000, fetchImpl: () => f.fn });
    const err = await c.get('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect((err as HttpError).text).toBe('SecurityException: Write access denied');
  });

  it('gives status 0 when there is no answer, and on timeout', async () => {
    const down = createClient({
      base: '/api',
      timeoutMs: 1000,
      fetchImpl: () => () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const e1 = (await down.get('/server').catch((e: unknown) => e)) as HttpError;
    expect(e1.status).toBe(0);

    vi.useFakeTimers();
    try {
      const hang = createClient({
        base: '/api',
        timeoutMs: 50,
        fetchImpl: () => (_input, init) =>
          new Promise((_ok, fail) =>
            init?.signal?.addEventListener('abort', () => fail(new Error('aborted'))),
          ),
      });
      const p = hang.get('/slow').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(60);
      const e2 = (await p) as HttpError;
      expect(e2.status).toBe(0);
      expect(e2.text).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });

  it('returns headers from request() (licensemode / devicelimit)', async () => {
    const f = fakeFetch(() => json({ id: 1 }, 200, { licensemode: 'plus', devicelimit: '50' }));
    const c = createClient({ base: '/api', timeoutMs: 1000, fetchImpl: () => f.fn });
    const res = await c.request<{ id: number }>('GET', '/server');
    expect(res.data.id).toBe(1);
    expect(res.headers.get('licensemode')).toBe('plus');
    expect(res.headers.get('devicelimit')).toBe('50');
  });
});

describe('language and refusals (docs/permissions.md)', () => {
  it('sends Accept-Language with the language the client is given, at request time', async () => {
    const f = fakeFetch(() => json([]));
    let lang = 'pt-BR';
    const c = createClient({ base: '/api', timeoutMs: 1000, fetchImpl: () => f.fn, language: () => lang });
    await c.get('/devices');
    lang = 'es';
    await c.get('/devices');
    const header = (i: number) => (f.calls[i].init.headers as Record<string, string>)['Accept-Language'];
    expect([header(0), header(1)]).toEqual(['pt-BR', 'es']);
  });

  it('the app clients ask for the current i18n language', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json([]));
    try {
      await setLocale('es');
      await api.get('/groups');
      await ext.get('/theme');
      for (const call of spy.mock.calls)
        expect((call[1]?.headers as Record<string, string>)['Accept-Language']).toBe('es');
    } finally {
      spy.mockRestore();
      await setLocale('pt-BR');
    }
  });

  it('refusalMessage: the server text of a 403 without the SecurityException prefix, else null', () => {
    expect(
      refusalMessage(new HttpError(403, 'SecurityException: Permissão negada: editar (dispositivos)')),
    ).toBe('Permissão negada: editar (dispositivos)');
    expect(refusalMessage(new HttpError(403, 'Denied\nstack'))).toBe('Denied');
    expect(refusalMessage(new HttpError(403, ''))).toBeNull();
    expect(refusalMessage(new HttpError(400, 'SecurityException: Write access denied'))).toBeNull();
    expect(refusalMessage(new Error('x'))).toBeNull();
  });

  it("serverMessage: the message only, Traccar's English refusals in the user's language (issue #29)", async () => {
    await setLocale('pt-BR');
    expect(serverMessage(new HttpError(400, 'SecurityException: Write access denied'))).toBe(
      'Acesso negado: esta conta só pode visualizar',
    );
    expect(refusalMessage(new HttpError(403, 'SecurityException: Write access denied'))).toBe(
      'Acesso negado: esta conta só pode visualizar',
    );
    expect(serverMessage(new HttpError(404, 'WebApplicationException: Link não encontrado\nat x'))).toBe(
      'Link não encontrado',
    );
    expect(serverMessage(new HttpError(500, 'java.lang.NullPointerException: boom'))).toBe('boom');
    try {
      await setLocale('es');
      expect(serverMessage(new HttpError(403, 'SecurityException: Device limit reached'))).toBe(
        'Límite de dispositivos alcanzado',
      );
    } finally {
      await setLocale('pt-BR');
    }
  });
});
