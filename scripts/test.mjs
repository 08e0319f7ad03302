// `npm test`: every check in order (lint, formatting, type checks, unit + API tests, browser tests). Each runner
// leaves a JSON report in RASTRO_REPORT_DIR so .ci/run can print the totals; all steps run even when one fails.
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
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${join(dir, 'vitest.json')}`,
    ],
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

let failures = 0;
for (const step of steps) {
  if (only.length && !only.includes(step.name)) continue;
  if (step.skipIf?.()) continue;
  console.log(`\n=== ${step.name}: ${step.cmd.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(step.cmd[0], step.cmd.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  const ok = r.status === 0;
  if (!ok) failures++;
  console.log(`=== ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!['unit', 'e2e'].includes(step.name)) {
    writeFileSync(join(dir, `step-${step.name}.json`), JSON.stringify({ ok }));
  } else if (!ok && !existsSync(join(dir, step.name === 'unit' ? 'vitest.json' : 'playwright.json'))) {
    writeFileSync(join(dir, `step-${step.name}.json`), JSON.stringify({ ok }));
  }
}
process.exit(failures ? 1 : 0);
