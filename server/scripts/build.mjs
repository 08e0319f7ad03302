// Production build of the server: one ES module, server/dist/main.js, with the domain package and every source
// file bundled (no TypeScript compiler at run time) and the npm dependencies left as imports; the extension
// API's bundled assets (sounds, category icons, default branding) are copied beside it.
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const server = resolve(import.meta.dirname, '..');
const dist = join(server, 'dist');
const pkg = JSON.parse(readFileSync(join(server, 'package.json'), 'utf8'));

rmSync(dist, { recursive: true, force: true });
await build({
  // the SQLite → PostgreSQL copy (copyToPostgres.ts) is a second entry
  entryPoints: [join(server, 'src', 'main.ts'), join(server, 'src', 'copyToPostgres.ts')],
  outdir: dist,
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(pkg.dependencies ?? {}),
  logLevel: 'warning',
});
cpSync(join(server, 'src', 'ext', 'assets'), join(dist, 'assets'), {
  recursive: true,
  filter: (src) => !src.endsWith('.ts'),
});
console.log(`built ${join('server', 'dist', 'main.js')}`);
