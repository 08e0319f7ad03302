// Gateway-mode tests: an embedded instance as the "Traccar" upstream and a gateway instance in front of it, both
// on 127.0.0.1 with random ports.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { makeTestApp, type TestApp } from './app.ts';

export interface GatewayPair {
  upstream: TestApp;
  gateway: FastifyInstance;
  gatewayCtx: AppContext;
  /** The gateway's DATA_DIR. */
  dir: string;
  /** http://127.0.0.1:port of the gateway. */
  url: string;
  ns: string;
  close(): Promise<void>;
}

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

/**
 * `upstreamOverrides` configure the upstream (e.g. a basic edition that enforces no permission bits itself);
 * `gatewayOverrides` the gateway (e.g. its WEB_ORIGIN list or a log stream to read).
 */
export async function startGatewayPair(
  dirPrefix: string,
  upstreamOverrides: Partial<Config> = {},
  gatewayOverrides: Partial<Config> = {},
): Promise<GatewayPair> {
  const upstream = await makeTestApp(upstreamOverrides);
  await upstream.app.listen({ port: 0, host: '127.0.0.1' });
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  const config = loadConfig(
    {
      TRACCAR_URL: `http://127.0.0.1:${portOf(upstream.app)}`,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      SIM_DEVICES: '0',
      OSMAND_PORT: '0',
    },
    gatewayOverrides,
  );
  if (config.mode !== 'gateway') throw new Error(`expected gateway mode, got ${config.mode}`);
  const { app: gateway, ctx: gatewayCtx } = await buildApp(config);
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  return {
    upstream,
    gateway,
    gatewayCtx,
    dir,
    url: `http://127.0.0.1:${portOf(gateway)}`,
    ns: config.ns,
    async close() {
      await gateway.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
