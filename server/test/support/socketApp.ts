// The live socket tests' shared setup: a test app listening on a free port of 127.0.0.1, the URL of its /api/socket,
// the sockets a test opens (pushed by the test) and one `close` that terminates them and closes the app.
import type { AddressInfo } from 'node:net';
import type WebSocket from 'ws';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

export interface SocketApp {
  t: TestApp;
  /** ws://127.0.0.1:<port>/api/socket */
  url: string;
  /** The test's sockets: each one pushed here is terminated by `close`. */
  sockets: WebSocket[];
  /** Terminates the sockets, then closes the app. */
  close(): Promise<void>;
}

/** Listens on `t` (a new test app when none is given) and answers its socket URL: a live test's `beforeAll`. */
export async function startSocketApp(t?: TestApp): Promise<SocketApp> {
  const app = t ?? (await makeTestApp());
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const sockets: WebSocket[] = [];
  return {
    t: app,
    url: `ws://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/api/socket`,
    sockets,
    async close() {
      for (const s of sockets) s.terminate();
      await app.close();
    },
  };
}
