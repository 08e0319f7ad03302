import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';

/** How long a shutdown may take (in-flight requests, queued positions) before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 20_000;

const config = loadConfig();
const { app } = await buildApp(config).catch((err: unknown) => {
  // PostgreSQL unreachable at start (issue #30): one line naming DATABASE_URL and why, no stack trace
  if (err instanceof Error && err.name === 'StoreUnreachable') {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
});
await app.listen({ port: config.port, host: config.host });
const shown = ['0.0.0.0', '127.0.0.1', '::', '::1'].includes(config.host) ? 'localhost' : config.host;
console.log(`\nRastro is running (${config.mode} mode) at http://${shown}:${config.port}`);
if (config.mode === 'embedded') {
  console.log(`Demo administrator: ${config.adminEmail} / ${config.adminPassword}\n`);
}

// Graceful shutdown: stop accepting connections, answer the requests in flight, flush queued positions to the
// store and close it (app.close runs every onClose hook), then exit. A second signal or the grace period ends it.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    setTimeout(() => {
      console.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('shutdown failed', err);
        process.exit(1);
      },
    );
  });
}
