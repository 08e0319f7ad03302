// End-to-end tests in Debian's Chromium against the real server in embedded mode (the web must be built first:
// `npm run build -w web`). Each run gets a fresh DATA_DIR under .tmp/ so the demo data is seeded anew.
import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_PORT ?? 8090);
// Set once in the main process; workers inherit the environment and so see the same folder.
process.env.E2E_DATA_DIR ??= resolve(root, '.tmp', `e2e-${port}-${Date.now()}`);

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  // One retry on CI only: the 2-core CI machine is shared and software WebGL is slow; a test that fails twice fails.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'pt-BR',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: chromiumArgs,
    },
    trace: 'off',
    screenshot: 'off',
  },
  webServer: {
    command: 'node --import tsx server/src/main.ts',
    cwd: root,
    url: `http://127.0.0.1:${port}/api/server`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      SIM_DEVICES: '30',
      SIM_INTERVAL_MS: '2000',
      OSMAND_PORT: '0',
      LOG_LEVEL: 'warn',
    },
  },
});
