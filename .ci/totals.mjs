// Adds up the JSON reports of every runner (lint, typecheck, vitest, playwright) into the closing line CI reads.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, status] = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const name of readdirSync(dir)) {
  const data = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  if (name.startsWith('vitest')) {
    passed += data.numPassedTests ?? 0;
    failed += (data.numFailedTests ?? 0) + (data.numFailedTestSuites ?? 0);
  } else if (name.startsWith('playwright')) {
    passed += (data.stats?.expected ?? 0) + (data.stats?.flaky ?? 0);
    failed += data.stats?.unexpected ?? 0;
  } else if (name.startsWith('step-')) {
    if (data.ok) passed += 1;
    else failed += 1;
  }
}
if (Number(status) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
