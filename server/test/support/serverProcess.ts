// The one way tests and benchmarks start a Rastro server as a process of its own (issue #33): the browser tests'
// isolated servers (web/e2e/fixtures.ts), the benchmarks (bench/server.ts, bench/stores.ts), the two-process and
// production tests, and the start-up refusals (runServerToExit). It picks free local ports, gives the process a data folder of its own, waits until it answers,
// keeps what it prints, and stops it (SIGTERM, SIGKILL after 5 s). Node built-ins only, so every package can use it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const serverDir = resolve(repoRoot, 'server');

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

export interface ServerProcessOptions {
  /** Names the data folder (`.tmp/<name>-<port>-<time>`). */
  name?: string;
  /** Variables on top of the defaults (no demo fleet, OsmAnd off, warnings only). */
  env?: Record<string, string>;
  /** Pass this process's whole environment on (default: PATH only, so a developer's settings stay out). */
  inheritEnv?: boolean;
  /** `sources` runs server/src/main.ts through tsx (default); `dist` runs the production build. */
  build?: 'sources' | 'dist';
  /** Data folder to use (kept on stop; `env.DATA_DIR` counts too); default a fresh one under .tmp, removed by stop(). */
  dataDir?: string;
  /** Listen for OsmAnd on a free port of its own (default off: OSMAND_PORT=0). */
  osmand?: boolean;
  /** What the process prints: kept in `output` (default), passed to this process's stderr, or dropped. */
  output?: 'keep' | 'inherit' | 'ignore';
  /** How long to wait for the first answer of /api/health (default 120 s; a large demo fleet seeds first). */
  readyTimeoutMs?: number;
}

export interface ServerProcess {
  url: string;
  port: number;
  /** http://127.0.0.1:<port> of its OsmAnd listener, or null when off. */
  osmandUrl: string | null;
  dataDir: string;
  /** The running process (replaced by restart()). */
  readonly child: ChildProcess;
  /** What it printed so far (with `output: 'keep'`). */
  output: string[];
  /** Resolves with its exit code once it exits. */
  readonly exited: Promise<number | null>;
  /** SIGTERM (or the signal given), SIGKILL after 5 s; removes a data folder this module made. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it and starts it again on the same ports and data. */
  restart(): Promise<void>;
}

/** The environment a server process gets: the defaults, then the caller's. */
function envOf(
  opts: ServerProcessOptions,
  port: number,
  osmandPort: number,
  dataDir: string,
): NodeJS.ProcessEnv {
  return {
    ...(opts.inheritEnv ? process.env : { PATH: process.env.PATH }),
    HOST: '127.0.0.1',
    PORT: String(port),
    OSMAND_PORT: String(osmandPort),
    DATA_DIR: dataDir,
    SIM_DEVICES: '0',
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
}

/** Starts a server process and resolves once /api/health answers 200. */
export async function startServerProcess(opts: ServerProcessOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const osmandPort = opts.osmand ? await freePort() : 0;
  const given = opts.dataDir ?? opts.env?.DATA_DIR;
  const ownDir = !given;
  const dataDir = given ?? resolve(repoRoot, '.tmp', `${opts.name ?? 'server'}-${port}-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const mode = opts.output ?? 'keep';
  const args =
    opts.build === 'dist'
      ? [resolve(serverDir, 'dist', 'main.js')]
      : ['--import', 'tsx', resolve(serverDir, 'src', 'main.ts')];

  let child!: ChildProcess;
  let exited!: Promise<number | null>;
  const launch = async () => {
    child = spawn(process.execPath, args, {
      cwd: serverDir,
      env: envOf(opts, port, osmandPort, dataDir),
      stdio: ['ignore', mode === 'keep' ? 'pipe' : 'ignore', mode === 'keep' ? 'pipe' : mode],
    });
    child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    const c = child;
    exited = new Promise((ok) => c.once('exit', (code) => ok(code)));
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 120_000);
    for (;;) {
      if (c.exitCode !== null || c.signalCode !== null)
        throw new Error(
          `server exited with ${c.exitCode ?? c.signalCode} before answering:\n${output.join('')}`,
        );
      const up = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      if (Date.now() > deadline) {
        c.kill('SIGKILL');
        throw new Error(
          `server did not answer within ${opts.readyTimeoutMs ?? 120_000} ms:\n${output.join('')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const halt = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const c = child;
    if (c.exitCode === null && c.signalCode === null) {
      const kill = setTimeout(() => c.kill('SIGKILL'), 5000);
      c.kill(signal);
      await exited;
      clearTimeout(kill);
    }
  };

  await launch();
  return {
    url,
    port,
    osmandUrl: osmandPort ? `http://127.0.0.1:${osmandPort}` : null,
    dataDir,
    get child() {
      return child;
    },
    output,
    get exited() {
      return exited;
    },
    async stop(signal) {
      await halt(signal);
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await halt();
      await launch();
    },
  };
}

/**
 * Starts a server process that is expected to stop by itself (a start-up refusal, e.g. an unusable
 * DATABASE_URL) and resolves with its exit code and everything it printed. No data folder is made: pass one in
 * `dataDir` or `env.DATA_DIR` when the start-up reads it.
 */
export async function runServerToExit(
  opts: Omit<ServerProcessOptions, 'output' | 'readyTimeoutMs'> = {},
): Promise<{ code: number | null; out: string }> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? opts.env?.DATA_DIR ?? resolve(repoRoot, '.tmp', 'never-started');
  const args =
    opts.build === 'dist'
      ? [resolve(serverDir, 'dist', 'main.js')]
      : ['--import', 'tsx', resolve(serverDir, 'src', 'main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: envOf(opts, port, 0, dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((ok) => child.once('exit', (code) => ok({ code, out })));
}
