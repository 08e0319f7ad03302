// Several web builds served by one embedded server, loaded in turn (bench/first-map-ab.ts, bench/history.ts): their
// content-hashed assets side by side in one web root, and each build's entry page as index-NAME.html.
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** `NAME=<web dist dir>` arguments as [name, dir] pairs (others ignored). */
export const parseBuilds = (args: readonly string[]): Array<[string, string]> =>
  args.map((a) => a.split('=')).filter((p): p is [string, string] => p.length === 2 && !!p[0] && !!p[1]);

/** A new web root under .tmp/<tag>-<time>/web holding every build's assets and an index-NAME.html each. */
export function combinedWebRoot(tag: string, builds: ReadonlyArray<readonly [string, string]>): string {
  const webRoot = resolve(import.meta.dirname, '..', '.tmp', `${tag}-${Date.now()}`, 'web');
  mkdirSync(webRoot, { recursive: true });
  for (const [name, dir] of builds) {
    cpSync(join(dir, 'assets'), join(webRoot, 'assets'), { recursive: true, force: false });
    for (const f of readdirSync(dir))
      if (f !== 'assets') cpSync(join(dir, f), join(webRoot, f), { recursive: true });
    copyFileSync(join(dir, 'index.html'), join(webRoot, `index-${name}.html`));
  }
  // the server would answer /index.html's precompressed variants, one build's entry page
  rmSync(join(webRoot, 'index.html.br'), { force: true });
  rmSync(join(webRoot, 'index.html.gz'), { force: true });
  return webRoot;
}
