// Contract tests: embedded responses validated against /work/shared/traccar/openapi.yaml, with the corrections
// of CONTRACT §12 (and the null rules of §1/§3) applied explicitly below. After correction every documented
// property is required and no undocumented property is allowed, so shapes must match exactly.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  postForm,
  type TestApp,
} from '../helpers/index.ts';
import { insert } from '../support/testSql.ts';

/** A verbatim copy of Traccar's openapi.yaml v6.14.5 (Apache-2.0), kept next to the test so it runs anywhere. */
const SPEC_FILE = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; type?: unknown };
interface Spec {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

const spec = parseYaml(readFileSync(SPEC_FILE, 'utf8')) as Spec;
const S = spec.components.schemas;

const nullable = (s: Schema): Schema => ({
  ...s,
  type: [...new Set([...(Array.isArray(s.type) ? s.type : [s.type]), 'null'])],
});
const DATE_NULL: Schema = { type: ['string', 'null'], format: 'date-time' };
const ID: Schema = { type: 'integer', minimum: 0 };

/** CONTRACT §12 and §1/§3 corrections, one line each. */
function applyCorrections(): void {
  // §12: Device positionId/groupId are never null (0); Device also has calendarId and expirationTime.
  S.Device.properties!.positionId = ID;
  S.Device.properties!.groupId = ID;
  S.Device.properties!.calendarId = ID;
  S.Device.properties!.expirationTime = DATE_NULL;
  // §3: status is never null.
  S.Device.properties!.status = { type: 'string', enum: ['online', 'offline', 'unknown'] };
  // §12: User also has login, disableReports, totpKey, temporary. §3: password is write-only, null in responses.
  Object.assign(S.User.properties!, {
    login: { type: ['string', 'null'] },
    disableReports: { type: 'boolean' },
    totpKey: { type: ['string', 'null'] },
    temporary: { type: 'boolean' },
    password: { type: 'null' },
  });
  // §12: Server also has overlayUrl, disableReports, fixedEmail, emailEnabled, textEnabled, geocoderEnabled,
  // storageSpace, newServer. §1: Jackson includes nulls, so unset strings are null.
  Object.assign(S.Server.properties!, {
    overlayUrl: { type: ['string', 'null'] },
    disableReports: { type: 'boolean' },
    fixedEmail: { type: 'boolean' },
    emailEnabled: { type: 'boolean' },
    textEnabled: { type: 'boolean' },
    geocoderEnabled: { type: 'boolean' },
    storageSpace: { type: ['array', 'null'], items: { type: 'integer' }, minItems: 2, maxItems: 2 },
    newServer: { type: 'boolean' },
  });
  for (const k of ['map', 'bingKey', 'mapUrl', 'poiLayer', 'announcement', 'coordinateFormat']) {
    S.Server.properties![k] = nullable(S.Server.properties![k]);
  }
  // §3: Geofence and Command descriptions are nullable; a saved Command carries deviceId 0.
  S.Geofence.properties!.description = nullable(S.Geofence.properties!.description);
  S.Command.properties!.description = nullable(S.Command.properties!.description);
  // §12: computed attribute types are lower-case and Attribute has priority (and no attributes map).
  S.Attribute.properties!.type = { type: 'string', enum: ['string', 'number', 'boolean'] };
  S.Attribute.properties!.priority = { type: 'integer' };
  // §12: permission keys also include maintenanceId, orderId, reportId, linkedDeviceId.
  for (const k of ['maintenanceId', 'orderId', 'reportId', 'linkedDeviceId'])
    S.Permission.properties![k] = ID;
  // §3: Statistics also has id, attributes, mailSent, smsSent, geocoderRequests, geolocationRequests, protocols.
  Object.assign(S.Statistics.properties!, {
    id: { type: 'integer' },
    attributes: { type: 'object' },
    mailSent: { type: 'integer' },
    smsSent: { type: 'integer' },
    geocoderRequests: { type: 'integer' },
    geolocationRequests: { type: 'integer' },
    protocols: { type: 'object', additionalProperties: { type: 'integer' } },
  });
  // §1: Action address/userEmail/objectType are null when unknown.
  for (const k of ['address', 'userEmail', 'objectType'])
    S.Action.properties![k] = nullable(S.Action.properties![k]);
  // After correction: exact shapes (every documented field present, nothing else). Permission objects have
  // exactly two keys instead.
  // §1: Order strings are null when unset.
  for (const k of ['description', 'fromAddress', 'toAddress'])
    S.Order.properties![k] = nullable(S.Order.properties![k]);
  for (const name of [
    'Order',
    'Statistics',
    'Action',
    'Device',
    'User',
    'Server',
    'Group',
    'Geofence',
    'Notification',
    'Calendar',
    'Attribute',
    'Driver',
    'Maintenance',
    'Command',
  ]) {
    S[name].required = Object.keys(S[name].properties!);
    S[name].additionalProperties = false;
  }
  S.Permission.minProperties = 2;
  S.Permission.maxProperties = 2;
  S.Permission.additionalProperties = false;
}
applyCorrections();

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'traccar', components: spec.components });

function responseSchema(method: string, path: string, status: number, contentType: string): Schema {
  const op = spec.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${path} is not in openapi.yaml`);
  const resp = op.responses?.[String(status)];
  if (!resp) throw new Error(`${method} ${path}: status ${status} not documented`);
  const content = resp.content ?? {};
  const entry = content[contentType] ?? Object.values(content)[0];
  if (!entry) return {};
  return JSON.parse(
    JSON.stringify(entry.schema).replaceAll('"#/components/', '"traccar#/components/'),
  ) as Schema;
}

/** Validates an injected response against the spec operation (status documented, body matches schema). */
function check(method: string, path: string, res: LightMyRequestResponse): unknown {
  const type = String(res.headers['content-type'] ?? '').split(';')[0];
  const schema = responseSchema(method, path, res.statusCode, type);
  if (res.statusCode === 204) {
    expect(res.body).toBe('');
    return undefined;
  }
  const body = type === 'application/json' ? res.json() : res.body;
  const validate = ajv.compile(schema);
  if (!validate(body)) {
    throw new Error(
      `${method} ${path} ${res.statusCode}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
  return body;
}

const ICS = Buffer.from(
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:20240501T080000Z\r\nDTEND:20240501T170000Z\r\nEND:VEVENT\r\nEND:VCALENDAR',
).toString('base64');

const BODIES: Record<string, Record<string, unknown>> = {
  '/devices': {
    name: 'Contract device',
    uniqueId: 'contract-1',
    phone: '+1',
    attributes: { speedLimit: 60 },
  },
  '/groups': { name: 'Contract group' },
  '/geofences': { name: 'Zone', area: 'POLYGON ((1 1, 1 2, 2 2, 1 1))' },
  '/notifications': { type: 'geofenceEnter', notificators: 'web,mail', always: true },
  '/calendars': { name: 'Cal', data: ICS },
  '/attributes/computed': { description: 'd', attribute: 'a', expression: 'speed > 10', type: 'boolean' },
  '/drivers': { name: 'Driver', uniqueId: 'drv-contract' },
  '/maintenance': { name: 'Tyres', type: 'odometer', start: 1000, period: 50000 },
  '/orders': { uniqueId: 'ord-1', description: 'Order', fromAddress: null, toAddress: 'Somewhere' },
  '/commands': { type: 'positionPeriodic', description: null, attributes: { frequency: 60 } },
};

describe('embedded responses match openapi.yaml (with CONTRACT §12 corrections)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('GET/PUT /server, /server/timezones, /health', async () => {
    check('GET', '/server', await api(t.app, null, 'GET', '/api/server'));
    const s = check('GET', '/server', await api(t.app, t.admin, 'GET', '/api/server')) as Record<
      string,
      unknown
    >;
    check('PUT', '/server', await api(t.app, t.admin, 'PUT', '/api/server', { ...s, announcement: 'Hi' }));
    check('GET', '/server/timezones', await api(t.app, t.admin, 'GET', '/api/server/timezones'));
    check('GET', '/health', await api(t.app, null, 'GET', '/api/health'));
  });

  it('session: POST, GET, token, DELETE', async () => {
    const res = await postForm(t.app, null, '/api/session', { email: 'admin', password: 'admin' });
    check('POST', '/session', res);
    const cookie = `JSESSIONID=${res.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    check('GET', '/session', await api(t.app, cookie, 'GET', '/api/session'));
    check('POST', '/session/token', await postForm(t.app, cookie, '/api/session/token', {}));
    check('DELETE', '/session', await api(t.app, cookie, 'DELETE', '/api/session'));
    check('GET', '/session', await api(t.app, cookie, 'GET', '/api/session'));
  });

  it('users: list, create, get, update, delete', async () => {
    const created = check(
      'POST',
      '/users',
      await api(t.app, t.admin, 'POST', '/api/users', {
        name: 'Contract',
        email: 'contract@x',
        password: 'pass',
      }),
    ) as {
      id: number;
    };
    check('GET', '/users', await api(t.app, t.admin, 'GET', '/api/users'));
    const one = check(
      'GET',
      '/users/{id}',
      await api(t.app, t.admin, 'GET', `/api/users/${created.id}`),
    ) as Record<string, unknown>;
    check(
      'PUT',
      '/users/{id}',
      await api(t.app, t.admin, 'PUT', `/api/users/${created.id}`, { ...one, phone: '1' }),
    );
    check('DELETE', '/users/{id}', await api(t.app, t.admin, 'DELETE', `/api/users/${created.id}`));
  });

  for (const [path, body] of Object.entries(BODIES)) {
    it(`${path}: list, create, get, update, delete`, async () => {
      const created = check('POST', path, await api(t.app, t.admin, 'POST', `/api${path}`, body)) as Record<
        string,
        unknown
      > & {
        id: number;
      };
      check('GET', path, await api(t.app, t.admin, 'GET', `/api${path}`));
      const one = check(
        'GET',
        `${path}/{id}`,
        await api(t.app, t.admin, 'GET', `/api${path}/${created.id}`),
      ) as Record<string, unknown>;
      expect(one).toEqual(created);
      check('PUT', `${path}/{id}`, await api(t.app, t.admin, 'PUT', `/api${path}/${created.id}`, one));
      check('DELETE', `${path}/{id}`, await api(t.app, t.admin, 'DELETE', `/api${path}/${created.id}`));
    });
  }

  it('permissions: POST, GET, DELETE, bulk', async () => {
    const u = await createUser(t);
    const d = await createDevice(t);
    const g = await createObject(t, 'geofences', { name: 'g', area: 'CIRCLE (1 2, 3)' });
    check(
      'POST',
      '/permissions',
      await api(t.app, t.admin, 'POST', '/api/permissions', { userId: u.id, deviceId: d.id }),
    );
    await link(t, { deviceId: d.id, geofenceId: g.id });
    check(
      'GET',
      '/permissions',
      await api(t.app, t.admin, 'GET', `/api/permissions?userId=${u.id}&deviceId=0`),
    );
    check(
      'GET',
      '/permissions',
      await api(t.app, t.admin, 'GET', `/api/permissions?deviceId=${d.id}&geofenceId=0`),
    );
    check(
      'DELETE',
      '/permissions',
      await api(t.app, t.admin, 'DELETE', '/api/permissions', { userId: u.id, deviceId: d.id }),
    );
    const bulk = await api(t.app, t.admin, 'POST', '/api/permissions/bulk', [
      { userId: u.id, deviceId: d.id },
    ]);
    expect(bulk.statusCode).toBe(204);
    check(
      'POST',
      '/share/device',
      await postForm(t.app, t.admin, '/api/share/device', {
        deviceId: String(d.id),
        expiration: new Date(Date.now() + 60_000).toISOString(),
      }),
    );
  });

  it('audit and statistics', async () => {
    const range = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(
      new Date(Date.now() + 60_000).toISOString(),
    )}`;
    const actions = check(
      'GET',
      '/audit',
      await api(t.app, t.admin, 'GET', `/api/audit?${range}`),
    ) as unknown[];
    expect(actions.length).toBeGreaterThan(0);
    // Statistics rows exist for finished days only, from the first day with data (issue #27): a message stored
    // three days ago gives the last three days their rows.
    const d = await createDevice(t);
    const stored = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await insert(t.ctx.store.sql, 'positions', {
      deviceId: d.id,
      protocol: 'osmand',
      serverTime: stored,
      deviceTime: stored,
      fixTime: stored,
      latitude: 0,
      longitude: 0,
    });
    const days = `from=${encodeURIComponent(new Date(Date.now() - 3 * 86_400_000).toISOString())}&to=${encodeURIComponent(
      new Date().toISOString(),
    )}`;
    const stats = check(
      'GET',
      '/statistics',
      await api(t.app, t.admin, 'GET', `/api/statistics?${days}`),
    ) as unknown[];
    expect(stats.length).toBeGreaterThan(0);
  });

  it('the corrected schemas reject what the contract forbids', async () => {
    const device = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'POST', '/api/devices', { name: 'x', uniqueId: 'neg-1' }),
      200,
    );
    const validate = ajv.compile({ $ref: 'traccar#/components/schemas/Device' });
    expect(validate(device)).toBe(true);
    expect(validate({ ...device, groupId: null })).toBe(false);
    expect(validate({ ...device, status: null })).toBe(false);
    const { phone: _phone, ...withoutPhone } = device;
    expect(validate(withoutPhone)).toBe(false);
    const user = ajv.compile({ $ref: 'traccar#/components/schemas/User' });
    const me = expectStatus<Record<string, unknown>>(await api(t.app, t.admin, 'GET', '/api/session'), 200);
    expect(user(me)).toBe(true);
    expect(user({ ...me, password: 'secret' })).toBe(false);
  });
});
