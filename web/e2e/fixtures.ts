// Shared Playwright fixtures for every e2e spec.
//   import { test, expect, loginAs, accounts, startIsolatedServer } from './fixtures.ts';
// `test` adds an init script that sets localStorage mapStyle = 'offline' (no tile fetches) and a `loginAs`
// fixture. loginAs signs in through the API (POST /api/session, form-encoded) in the page's cookie jar and
// returns the user; navigate afterwards with page.goto(...).
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

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

export const test = base.extend<{ loginAs: (email: string, password: string) => Promise<LoggedUser> }>({
  page: async ({ page }, use) => {
    await useOfflineMap(page);
    await use(page);
  },
  loginAs: async ({ page }, use) => {
    await use((email, password) => loginAs(page, email, password));
  },
});

const root = resolve(import.meta.dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

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
  const port = await freePort();
  const dataDir = resolve(root, '.tmp', `e2e-isolated-${port}-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  const start = async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        SIM_DEVICES: '5',
        SIM_INTERVAL_MS: '2000',
        OSMAND_PORT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`isolated server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`${url}/api/server`);
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error('isolated server did not start within 90 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((done) => {
      const kill = setTimeout(() => c.kill('SIGKILL'), 5000);
      c.once('exit', () => {
        clearTimeout(kill);
        done();
      });
      c.kill('SIGTERM');
    });
  };

  await start();
  return {
    url,
    port,
    dataDir,
    stop,
    async restart() {
      await stop();
      await start();
    },
  };
}

/** Removes an isolated server's data folder (call after stop()). */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
