// The embedded server the browser benchmarks run against: started from the sources on a free local port with a
// data directory of its own under .tmp, the demo simulator moving `devices` vehicles (about 1,000 positions a second
// whatever the fleet size unless `intervalMs` says otherwise), and removed again by stop().
import { startServerProcess } from '../server/test/support/serverProcess.ts';

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
  const server = await startServerProcess({
    name: `bench-${opts.name}`,
    inheritEnv: true,
    output: 'inherit',
    // seeding a large fleet takes a while on first start
    readyTimeoutMs: 600_000,
    env: {
      SIM_DEVICES: String(opts.devices),
      SIM_INTERVAL_MS: String(opts.intervalMs ?? Math.max(100, opts.devices)),
      ...opts.env,
    },
  });
  return { url: server.url, dir: server.dataDir, stop: () => server.stop() };
}
