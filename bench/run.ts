// `npm run bench`: runs every benchmark script in turn (each bounded in count and time, each writing its
// figures to bench/results/<name>.md), then assembles bench/RESULTS.md from those files.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const order = [
  'ingest',
  'stores',
  'device-writes',
  'reports',
  'insights',
  'alarms',
  'map',
  'history',
  'web-budget',
];
const only = process.argv.slice(2);

for (const name of order) {
  if (only.length && !only.includes(name)) continue;
  const script = join(here, `${name}.ts`);
  if (!existsSync(script)) continue;
  console.log(`\n=== bench ${name}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (r.status !== 0) console.error(`bench ${name} exited with ${r.status}`);
}

const parts = readdirSync(join(here, 'results'))
  .filter((f) => f.endsWith('.md'))
  .sort((a, b) => order.indexOf(a.replace('.md', '')) - order.indexOf(b.replace('.md', '')))
  .map((f) => readFileSync(join(here, 'results', f), 'utf8').trim());

writeFileSync(
  join(here, 'RESULTS.md'),
  [
    '# Benchmark results',
    '',
    'Produced by `npm run bench` on the 2-core, 24 GiB development machine (Node 20, Debian Chromium with',
    'software WebGL). Shared, noisy machines: read ratios and orders of magnitude, not single milliseconds.',
    'Each section comes from `bench/results/<name>.md`, written by `bench/<name>.ts`.',
    '',
    ...parts.flatMap((p) => [p, '']),
  ].join('\n'),
);
console.log('\nwrote bench/RESULTS.md');
