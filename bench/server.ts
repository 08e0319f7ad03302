// The embedded server the browser benchmarks run against: started from the sources on a free local port with a
// data directory of its own under .tmp, the demo simulator moving `devices` vehicles (about 1,000 positions a second
// whatever the fleet size unless `intervalMs` says otherwise), and removed again by stop().
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from './chromium.ts';

const root = resolve(import.meta.dirname, '..');

export interface BenchServer {
  url: string;
  /** Its data directory. */
  dir: string;
  /** Stops it (SIGTERM, SIGKILL after 5 s) and removes its data directory. */
  stop(): Promise<void>;
}

export async function startBenchServer(opts: {
  name: string;
  devices: number;
  intervalMs?: number;
  env?: Record<string, string>;
}): Promise<BenchServer> {
  const port = await freePort();
  const dir = resolve(root, '.tmp', `bench-${opts.name}-${port}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dir,
      SIM_DEVICES: String(opts.devices),
      SIM_INTERVAL_MS: String(opts.intervalMs ?? Math.max(100, opts.devices)),
      OSMAND_PORT: '0',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      const finish = () => {
        rmSync(dir, { recursive: true, force: true });
        done();
      };
      if (child.exitCode !== null) return finish();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(kill);
        finish();
      });
      child.kill('SIGTERM');
    });
  // seeding a large fleet takes a while on first start
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/api/server`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, dir, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
