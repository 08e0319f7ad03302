// Test helpers for every server test: an isolated app on a temporary SQLite file, login, and API shortcuts.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { dropStore, storeEnv } from './store.ts';

export const ADMIN_EMAIL = 'admin';
export const ADMIN_PASSWORD = 'admin';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  dir: string;
  /** Cookie header of the seeded administrator (logged in on creation). */
  admin: string;
  close(): Promise<void>;
}

/**
 * Builds the whole server (embedded mode) on a fresh temp directory: SIM_DEVICES=0, OSMAND_PORT=0, silent logs.
 * The configured administrator (admin/admin) exists and is logged in (`admin` cookie).
 */
export async function makeTestApp(
  overrides: Partial<Config> = {},
  env: NodeJS.ProcessEnv = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'rastro-test-'));
  const config = loadConfig(
    {
      DATA_DIR: dir,
      SIM_DEVICES: '0',
      OSMAND_PORT: '0',
      LOG_LEVEL: 'silent',
      RASTRO_ADMIN_EMAIL: ADMIN_EMAIL,
      RASTRO_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...(await storeEnv(dir)),
      ...env,
    },
    { host: '127.0.0.1', port: 0, logLevel: 'silent', simDevices: 0, osmandPort: 0, ...overrides },
  );
  const { app, ctx } = await buildApp(config);
  await app.ready();
  const admin = await login(app, config.adminEmail, config.adminPassword);
  return {
    app,
    ctx,
    dir,
    admin,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
      await dropStore(dir);
    },
  };
}

/** Logs in through POST /api/session (form) and returns the `Cookie` header value (`JSESSIONID=...`). */
export async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email, password }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'JSESSIONID');
  if (!cookie) throw new Error('no JSESSIONID cookie');
  return `JSESSIONID=${cookie.value}`;
}

/** An injected JSON request as `cookie`; `body` is sent as JSON. */
export function api(
  app: FastifyInstance,
  cookie: string | null,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  const opts: InjectOptions = { method, url, headers };
  if (body !== undefined) opts.payload = body as InjectOptions['payload'];
  return app.inject(opts);
}

/** Throws with the response text unless the status is `status`; returns the parsed JSON (or text). */
export function expectStatus<T = unknown>(res: LightMyRequestResponse, status: number): T {
  if (res.statusCode !== status) {
    throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }
  const type = String(res.headers['content-type'] ?? '');
  return (type.includes('json') ? res.json() : res.body) as T;
}

let seq = 0;
const next = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;

export interface CreatedUser {
  id: number;
  email: string;
  password: string;
  /** Cookie header of a fresh session of this user. */
  cookie: string;
}

/** Creates a user via POST /api/users as `asCookie` (admin by default), then logs it in. */
export async function createUser(
  t: TestApp,
  fields: Record<string, unknown> = {},
  asCookie: string = t.admin,
): Promise<CreatedUser> {
  const email = (fields.email as string | undefined) ?? `user-${next()}@example.com`;
  const password = (fields.password as string | undefined) ?? 'secret-pass';
  const res = await api(t.app, asCookie, 'POST', '/api/users', {
    name: `User ${email}`,
    // Admin-created test users may add devices; managers cannot set limits (CONTRACT §6).
    ...(asCookie === t.admin ? { deviceLimit: -1 } : {}),
    ...fields,
    email,
    password,
  });
  const user = expectStatus<{ id: number }>(res, 200);
  const cookie = fields.disabled ? '' : await login(t.app, email, password);
  return { id: user.id, email, password, cookie };
}

/** Creates a device via POST /api/devices as `asCookie` (admin by default); returns the Device JSON. */
export async function createDevice(
  t: TestApp,
  fields: Record<string, unknown> = {},
  asCookie: string = t.admin,
): Promise<{ id: number; uniqueId: string; name: string } & Record<string, unknown>> {
  const uniqueId = (fields.uniqueId as string | undefined) ?? `dev-${next()}`;
  const res = await api(t.app, asCookie, 'POST', '/api/devices', {
    name: `Device ${uniqueId}`,
    ...fields,
    uniqueId,
  });
  return expectStatus(res, 200);
}

/** Creates any object resource (path under /api, e.g. "groups") as `asCookie`; returns its JSON. */
export async function createObject(
  t: TestApp,
  path: string,
  body: Record<string, unknown>,
  asCookie: string = t.admin,
): Promise<{ id: number } & Record<string, unknown>> {
  return expectStatus(await api(t.app, asCookie, 'POST', `/api/${path}`, body), 200);
}

/** Links two objects via POST /api/permissions, e.g. link(t, { userId: 2, deviceId: 5 }). */
export async function link(
  t: TestApp,
  permission: Record<string, number>,
  asCookie: string = t.admin,
): Promise<void> {
  expectStatus(await api(t.app, asCookie, 'POST', '/api/permissions', permission), 204);
}

/** Removes a link via DELETE /api/permissions. */
export async function unlink(
  t: TestApp,
  permission: Record<string, number>,
  asCookie: string = t.admin,
): Promise<void> {
  expectStatus(await api(t.app, asCookie, 'DELETE', '/api/permissions', permission), 204);
}

/** Form-urlencoded POST (session, tokens, password, shares). */
export function postForm(
  app: FastifyInstance,
  cookie: string | null,
  url: string,
  form: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie) headers.cookie = cookie;
  return app.inject({ method: 'POST', url, headers, payload: new URLSearchParams(form).toString() });
}
