// Property tests: malformed bodies, queries, ids and dates sent to every embedded core endpoint only ever get
// 4xx answers with a message body (never a 5xx, never an empty error), and the server stays healthy.
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, makeTestApp, type TestApp } from '../helpers/index.ts';

const RESOURCES = [
  'devices',
  'groups',
  'geofences',
  'drivers',
  'calendars',
  'maintenance',
  'notifications',
  'commands',
  'attributes/computed',
  'users',
];
const RUNS = { numRuns: Number(process.env.FUZZ_RUNS ?? 40) };

/** Any answer is < 500; errors carry a text. `strict` also demands a 4xx. */
function sane(res: LightMyRequestResponse, strict: boolean, what: string): void {
  const ok = res.statusCode < 500 && (res.statusCode < 400 || res.body.length > 0);
  if (!ok || (strict && (res.statusCode < 400 || res.statusCode >= 500))) {
    throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
}

/** JSON that is not an object: arrays, strings, numbers, booleans, null. */
const notAnObject = fc.oneof(
  fc.array(fc.jsonValue(), { maxLength: 4 }),
  fc.string(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

/** Objects whose known fields have the wrong types. */
const wrongTypes = fc.record(
  {
    id: fc.oneof(fc.string(), fc.constant(-1), fc.double(), fc.constant(null), fc.array(fc.integer())),
    name: fc.oneof(fc.integer(), fc.constant(''), fc.array(fc.string()), fc.object()),
    uniqueId: fc.oneof(fc.integer(), fc.constant('   '), fc.boolean()),
    groupId: fc.oneof(fc.string(), fc.constant(-5), fc.double({ min: 0.1, max: 0.9 })),
    attributes: fc.oneof(fc.string(), fc.array(fc.integer()), fc.integer()),
    expirationTime: fc.oneof(fc.string(), fc.constant('2024-05-01T00:00:00'), fc.integer()),
    area: fc.oneof(fc.string(), fc.integer()),
    data: fc.oneof(fc.string(), fc.integer()),
    email: fc.oneof(fc.integer(), fc.constant('')),
    type: fc.oneof(fc.integer(), fc.string()),
  },
  { requiredKeys: ['name'] },
);

/** Ids that are not positive integers of a real object ("." and ".." are path segments, not ids). */
const badId = fc.oneof(
  fc.string({ minLength: 1 }).filter((s) => !/^\d+$/.test(s) && s !== '.' && s !== '..'),
  fc.integer({ min: -1_000_000, max: 0 }).map(String),
  fc.bigInt({ min: 10n ** 7n, max: 10n ** 30n }).map(String),
  fc.constantFrom('1.5', '1e3', '0x10', ' 1', 'NaN', '%00', '...'),
);

/** Date texts the contract refuses (no zone, not a date, out of range). */
const badDate = fc.oneof(
  fc.string(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace('Z', '')),
  fc.constantFrom('2024-13-01T00:00:00Z', '2024-05-01', 'yesterday', '2024-05-01T25:00:00+00:00', '0'),
);

const queryValue = fc.oneof(fc.string(), badId, fc.constantFrom('true', 'false', '-1', '', '%', '_'));
const queryString = fc
  .dictionary(
    fc.constantFrom(
      'all',
      'userId',
      'deviceId',
      'groupId',
      'id',
      'uniqueId',
      'keyword',
      'limit',
      'offset',
      'excludeAttributes',
      'token',
      'from',
      'to',
      'x',
    ),
    fc.oneof(queryValue, fc.array(queryValue, { minLength: 2, maxLength: 3 })),
  )
  .map((o) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
    return p.toString();
  });

describe('fuzz: malformed input never breaks the embedded core', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('non-object JSON bodies are refused with 4xx on every JSON endpoint', async () => {
    const targets: Array<[string, string]> = [
      ...RESOURCES.map((r): [string, string] => ['POST', `/api/${r}`]),
      ...RESOURCES.map((r): [string, string] => ['PUT', `/api/${r}/1`]),
      ['PUT', '/api/server'],
      ['POST', '/api/permissions'],
      ['DELETE', '/api/permissions'],
      ['POST', '/api/permissions/bulk'],
      ['DELETE', '/api/permissions/bulk'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), notAnObject, async ([method, url], body) => {
        const res = await t.app.inject({
          method: method as 'POST',
          url,
          headers: { cookie: t.admin, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        // A bulk body must be an array of permissions: any array of non-permissions is refused too.
        sane(res, true, `${method} ${url} ${JSON.stringify(body).slice(0, 80)}`);
      }),
      RUNS,
    );
  });

  it('objects with wrong field types are refused with 4xx on create and update', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RESOURCES), wrongTypes, fc.boolean(), async (r, body, create) => {
        const res = create
          ? await api(t.app, t.admin, 'POST', `/api/${r}`, body)
          : await api(t.app, t.admin, 'PUT', `/api/${r}/1`, body);
        sane(res, true, `${create ? 'POST' : 'PUT'} ${r} ${JSON.stringify(body).slice(0, 120)}`);
      }),
      RUNS,
    );
  });

  it('arbitrary JSON objects never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RESOURCES, 'permissions', 'server'),
        fc.object(),
        async (r, body) => {
          const method = r === 'server' ? 'PUT' : 'POST';
          sane(await api(t.app, t.admin, method, `/api/${r}`, body), false, `${method} ${r}`);
        },
      ),
      RUNS,
    );
  });

  it('malformed ids in paths are 4xx for GET, PUT, DELETE and session switch', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RESOURCES, 'session'),
        badId,
        fc.constantFrom('GET', 'PUT', 'DELETE'),
        async (r, id, method) => {
          if (r === 'session' && method !== 'GET') return;
          const url = `/api/${r}/${encodeURIComponent(id)}`;
          sane(
            await api(
              t.app,
              t.admin,
              method as 'GET',
              url,
              method === 'PUT' ? { id: 1, name: 'x' } : undefined,
            ),
            true,
            `${method} ${url}`,
          );
        },
      ),
      RUNS,
    );
  });

  it('malformed query strings on lists and /api/permissions never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RESOURCES, 'permissions', 'session', 'audit', 'statistics'),
        queryString,
        async (r, q) => {
          sane(await api(t.app, t.admin, 'GET', `/api/${r}?${q}`), false, `GET ${r}?${q}`);
        },
      ),
      RUNS,
    );
  });

  it('malformed dates are refused: token expiration, share expiration, expirationTime', async () => {
    await fc.assert(
      fc.asyncProperty(badDate, async (date) => {
        const form = (url: string, fields: Record<string, string>) =>
          t.app.inject({
            method: 'POST',
            url,
            headers: { cookie: t.admin, 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams(fields).toString(),
          });
        if (date.trim() !== '')
          sane(await form('/api/session/token', { expiration: date }), true, `token ${date}`);
        sane(await form('/api/share/device', { deviceId: '1', expiration: date }), true, `share ${date}`);
        const q = `from=${encodeURIComponent(date)}&to=${encodeURIComponent(date)}`;
        sane(await api(t.app, t.admin, 'GET', `/api/audit?${q}`), true, `audit ${date}`);
        sane(await api(t.app, t.admin, 'GET', `/api/statistics?${q}`), true, `statistics ${date}`);
        const res = await api(t.app, t.admin, 'POST', '/api/devices', {
          name: 'd',
          uniqueId: 'fuzz-date',
          expirationTime: date,
        });
        sane(res, true, `device expirationTime ${date}`);
      }),
      RUNS,
    );
  });

  it('malformed form bodies on session, password and share endpoints never 5xx', async () => {
    const forms = [
      '/api/session',
      '/api/session/token',
      '/api/session/token/revoke',
      '/api/password/reset',
      '/api/password/update',
      '/api/share/device',
      '/api/share/group',
      '/api/users/totp',
      '/api/session/password',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...forms),
        fc.dictionary(
          fc.constantFrom('email', 'password', 'code', 'token', 'expiration', 'deviceId', 'groupId', 'zz'),
          fc.string(),
        ),
        fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain'),
        async (url, fields, type) => {
          const payload =
            type === 'application/json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { cookie: t.admin, 'content-type': type },
            payload,
          });
          sane(res, false, `POST ${url} (${type}) ${payload.slice(0, 80)}`);
        },
      ),
      RUNS,
    );
  });

  it('/api/health is still OK and the admin still works afterwards', async () => {
    const health = await api(t.app, null, 'GET', '/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.body).toBe('OK');
    expect((await api(t.app, t.admin, 'GET', '/api/devices?all=true')).statusCode).toBe(200);
  });
});
