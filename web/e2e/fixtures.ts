// Shared Playwright fixtures for every e2e spec.
//   import { test, expect, loginAs, accounts, startIsolatedServer } from './fixtures.ts';
// `test` adds an init script that sets localStorage mapStyle = 'offline' (no tile fetches) and a `loginAs`
// fixture. loginAs signs in through the API (POST /api/session, form-encoded) in the page's cookie jar and
// returns the user; navigate afterwards with page.goto(...).
import { test as base, expect, type Page } from '@playwright/test';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServerProcess } from '../../server/test/support/serverProcess.ts';

export { expect };

export interface Account {
  email: string;
  password: string;
}

/** The demo accounts seeded by the embedded server (demo devices have uniqueIds rastro-0001 …). */
export const accounts = {
  admin: { email: 'admin', password: 'admin' },
  manager: { email: 'gerente@rastro.demo', password: 'demo123' },
  sub1: { email: 'sub1@rastro.demo', password: 'demo123' },
  sub2: { email: 'sub2@rastro.demo', password: 'demo123' },
  readonly: { email: 'leitura@rastro.demo', password: 'demo123' },
  driver: { email: 'motorista@rastro.demo', password: 'demo123' },
} satisfies Record<string, Account>;

export interface LoggedUser {
  id: number;
  name: string;
  email: string;
  administrator: boolean;
  attributes: Record<string, unknown>;
}

/** Signs in through the API with the page's cookies; throws with the server's text on failure. */
export async function loginAs(page: Page, email: string, password: string): Promise<LoggedUser> {
  const res = await page.request.post('/api/session', { form: { email, password } });
  if (!res.ok()) throw new Error(`login ${email} failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as LoggedUser;
}

/** Adds before any page script runs: the offline map style, so tests never fetch tiles. */
export async function useOfflineMap(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.localStorage.setItem('mapStyle', 'offline');
  });
}

/** The server settings as GET /api/server answers the administrator (attributes included). */
export interface ServerSettings extends Record<string, unknown> {
  attributes: Record<string, unknown>;
}

/** Changes server settings for one test; the fixture puts the settings read before the first change back after it. */
export interface ServerSettingsFixture {
  /** The settings now, read as the administrator (anonymous callers get only the sign-in pages' attributes). */
  read(): Promise<ServerSettings>;
  /** Merges `fields` (and `fields.attributes` into the attributes; an `undefined` attribute is removed) and saves. */
  change(fields: Partial<ServerSettings>): Promise<ServerSettings>;
  /** Reads the settings now so they are put back after the test (for a test that changes them through the app). */
  keep(): Promise<void>;
}

const ADMIN_AUTH = { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };

export const test = base.extend<{
  loginAs: (email: string, password: string) => Promise<LoggedUser>;
  serverSettings: ServerSettingsFixture;
}>({
  serverSettings: async ({ request }, use) => {
    let original: ServerSettings | null = null;
    const read = async () =>
      (await (await request.get('/api/server', { headers: ADMIN_AUTH })).json()) as ServerSettings;
    await use({
      read,
      async keep() {
        original ??= await read();
      },
      async change(fields) {
        const now = await read();
        original ??= now;
        const attributes = { ...now.attributes, ...fields.attributes };
        for (const [k, v] of Object.entries(attributes)) if (v === undefined) delete attributes[k];
        const next = { ...now, ...fields, attributes };
        const res = await request.put('/api/server', { headers: ADMIN_AUTH, data: next });
        if (!res.ok()) throw new Error(`PUT /api/server: ${res.status()} ${await res.text()}`);
        return next;
      },
    });
    if (original) await request.put('/api/server', { headers: ADMIN_AUTH, data: original });
  },
  page: async ({ page }, use) => {
    await useOfflineMap(page);
    await use(page);
  },
  loginAs: async ({ page }, use) => {
    await use((email, password) => loginAs(page, email, password));
  },
});

const root = resolve(import.meta.dirname, '..', '..');

export interface IsolatedServer {
  url: string;
  port: number;
  dataDir: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
}

/** Spawns another embedded server on a free port with its own DATA_DIR, for tests that stop or restart it. */
export async function startIsolatedServer(env: Record<string, string> = {}): Promise<IsolatedServer> {
  const dataDir = resolve(
    root,
    '.tmp',
    `e2e-isolated-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  );
  const server = await startServerProcess({
    dataDir,
    inheritEnv: true,
    output: 'inherit',
    readyTimeoutMs: 90_000,
    env: { SIM_DEVICES: '5', SIM_INTERVAL_MS: '2000', ...env },
  });
  return {
    url: server.url,
    port: server.port,
    dataDir,
    stop: () => server.stop(),
    restart: () => server.restart(),
  };
}

/** Removes an isolated server's data folder (call after stop()). */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
