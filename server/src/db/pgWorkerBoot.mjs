// Starts db/pgWorker.ts in a worker thread when the server runs from its TypeScript sources (npm start, tests):
// worker threads do not inherit tsx's loader, so it is registered here first. A failure to load is reported to the
// waiting main thread at once instead of after its timeout. The production build starts dist/pgWorker.js directly.
import { workerData } from 'node:worker_threads';

try {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./pgWorker.ts', import.meta.url).href);
} catch (err) {
  workerData.port.postMessage({
    id: -1, // answers whichever request is waiting
    error: { message: `PostgreSQL worker failed to start: ${err?.message ?? err}` },
  });
  const signal = new Int32Array(workerData.flag);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}
