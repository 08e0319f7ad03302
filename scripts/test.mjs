// `npm test`: every check in order (lint, formatting, import cycles, unused exports (knip), type checks, unit + API
// tests, the server's tests again on PostgreSQL, browser tests). Each runner leaves a JSON report in
// RASTRO_REPORT_DIR so .ci/run can print the totals; all steps run even when one fails. The PostgreSQL leg uses
// RASTRO_PG_URL, or a throwaway cluster it starts with scripts/pg-cluster.sh when Debian's postgresql is
// installed; without either it is skipped with a notice.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dir = resolve(process.env.RASTRO_REPORT_DIR ?? '.tmp/reports');
mkdirSync(dir, { recursive: true });
const only = process.argv.slice(2);

const steps = [
  { name: 'lint', cmd: ['npx', 'eslint', '.', '--max-warnings=0'] },
  { name: 'format', cmd: ['npx', 'prettier', '--check', '.'] },
  // no import circles in server/src, web/src, packages/domain/src (type-only imports included)
  { name: 'cycles', cmd: ['node', 'scripts/check-cycles.mjs'] },
  // no export that nothing uses (knip.jsonc; issue #27): fails on any unused export of server, web or domain
  { name: 'knip', cmd: ['npx', 'knip', '--no-progress'] },
  { name: 'typecheck-domain', cmd: ['npx', 'tsc', '-p', 'packages/domain', '--noEmit'] },
  { name: 'typecheck-server', cmd: ['npx', 'tsc', '-p', 'server', '--noEmit'] },
  { name: 'typecheck-web', cmd: ['npx', 'tsc', '-p', 'web', '--noEmit'] },
  { name: 'typecheck-bench', cmd: ['npx', 'tsc', '-p', 'bench', '--noEmit'] },
  {
    name: 'unit',
    cmd: [
      'npx',
      'vitest',
      'run',
      '--project=domain',
      '--project=server',
      '--project=web',
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${join(dir, 'vitest.json')}`,
    ],
    env: { RASTRO_TEST_DATABASE_URL: '' },
  },
  {
    // API, socket, live-core and extension tests once more, every server on a PostgreSQL schema of its own
    name: 'unit-pg',
    cmd: [
      'npx',
      'vitest',
      'run',
      '--project=server',
      '--project=server-pg',
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${join(dir, 'vitest-pg.json')}`,
    ],
    env: () => ({ RASTRO_TEST_DATABASE_URL: postgresUrl() }),
    skipIf: () => !postgresUrl(),
  },
  { name: 'build-web', cmd: ['npm', 'run', 'build', '-w', 'web'] },
  // JavaScript weight per page against its ceiling (bench/web-budget.ts): a size, not a timing.
  { name: 'web-budget', cmd: ['node', '--import', 'tsx', 'bench/web-budget.ts', '--check'] },
  {
    name: 'e2e',
    cmd: ['npx', 'playwright', 'test', '-c', 'web/playwright.config.ts'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(dir, 'playwright.json') },
    skipIf: () => !existsSync('web/playwright.config.ts'),
  },
];

let cluster = null;
/** RASTRO_PG_URL, or a throwaway cluster started on first use (stopped at the end). */
function postgresUrl() {
  if (process.env.RASTRO_PG_URL) return process.env.RASTRO_PG_URL;
  if (cluster === null) {
    const r = spawnSync('bash', ['scripts/pg-cluster.sh', 'start'], { encoding: 'utf8' });
    const vars = Object.fromEntries(
      (r.stdout ?? '')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    cluster = r.status === 0 ? vars : {};
    if (!cluster.RASTRO_PG_URL)
      console.log(`\n=== unit-pg skipped: no PostgreSQL (${(r.stderr ?? '').trim()})`);
  }
  return cluster.RASTRO_PG_URL ?? '';
}

let failures = 0;
for (const step of steps) {
  if (only.length && !only.includes(step.name)) continue;
  if (step.skipIf?.()) continue;
  console.log(`\n=== ${step.name}: ${step.cmd.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(step.cmd[0], step.cmd.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, ...(typeof step.env === 'function' ? step.env() : step.env) },
  });
  const ok = r.status === 0;
  if (!ok) failures++;
  console.log(`=== ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!['unit', 'unit-pg', 'e2e'].includes(step.name)) {
    writeFileSync(join(dir, `step-${step.name}.json`), JSON.stringify({ ok }));
  } else if (
    !ok &&
    !existsSync(
      join(dir, { unit: 'vitest.json', 'unit-pg': 'vitest-pg.json' }[step.name] ?? 'playwright.json'),
    )
  ) {
    writeFileSync(join(dir, `step-${step.name}.json`), JSON.stringify({ ok }));
  }
}
if (cluster?.RASTRO_PG_DIR) spawnSync('bash', ['scripts/pg-cluster.sh', 'stop', cluster.RASTRO_PG_DIR]);
process.exit(failures ? 1 : 0);
