import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';

const config = loadConfig();
const { app } = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
const shown = ['0.0.0.0', '127.0.0.1', '::', '::1'].includes(config.host) ? 'localhost' : config.host;
console.log(`\nRastro is running (${config.mode} mode) at http://${shown}:${config.port}`);
if (config.mode === 'embedded') {
  console.log(`Demo administrator: ${config.adminEmail} / ${config.adminPassword}\n`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
