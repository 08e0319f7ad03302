// What the browser benchmarks share: Chromium's flags and a free local port for the server under test.
import { createServer } from 'node:net';

/**
 * WebGL always runs on SwiftShader (software, no GPU). "gpu" compositing (as in any browser with a GPU process)
 * hands the page's frames to the compositor; "software" compositing (--disable-gpu) makes the page's main thread
 * read every WebGL frame back (GLES2::ReadPixels) before it can continue, a cost of that headless mode that no
 * user's browser pays.
 */
export type Compositing = 'gpu' | 'software';

export const chromiumArgs = (compositing: Compositing): string[] => [
  '--no-sandbox',
  ...(compositing === 'software' ? ['--disable-gpu'] : []),
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

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
