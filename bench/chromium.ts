// What the browser benchmarks share: Chromium's flags (the server under test starts through server/test/support/serverProcess.ts).

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
