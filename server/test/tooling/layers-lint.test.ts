// The layer rules of eslint.config.js (docs/architecture.md) refuse what they should, for the server's folders and
// for the web app's: each case lints a one-line file placed in the layer, as `npm test`'s lint step would.
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..', '..');
// The files linted here do not exist, so the server's type-aware rules (no-floating-promises, no-misused-promises,
// which need them in server/tsconfig.json's program) are turned off: this test is about the layer rule only.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: ['server/src/**/*.ts'],
    languageOptions: { parserOptions: { project: null } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
    },
  },
});

async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, 'the file parses').toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'layers/boundaries').map((m) => m.message);
}

describe('server layers', () => {
  it.each([
    ['server/src/traccar/x.ts', "import { a } from '../ext/billing/accounts.ts';\nexport { a };\n"],
    ['server/src/traccar/x.ts', "import { a } from '../live/ingest.ts';\nexport { a };\n"],
    ['server/src/live/reports/x.ts', "import { a } from '../../ext/shares.ts';\nexport { a };\n"],
    ['server/src/live/x.ts', "import { a } from '../gateway/upstream.ts';\nexport { a };\n"],
    ['server/src/gateway/x.ts', "import { a } from '../traccar/auth.ts';\nexport { a };\n"],
    ['server/src/db/x.ts', "import { a } from '../live/cache.ts';\nexport { a };\n"],
    ['server/src/ext/billing/x.ts', "import { a } from '../../app.ts';\nexport { a };\n"],
    ['server/src/db/x.ts', "export { a } from '../traccar/auth.ts';\n"],
    ['server/src/live/x.ts', "export const m = () => import('../ext/shares.ts');\n"],
  ])('%s may not: %s', async (file, code) => {
    expect(await refusals(file, code)).toHaveLength(1);
  });

  it.each([
    ['server/src/ext/x.ts', "import { a } from '../traccar/auth.ts';\nexport { a };\n"],
    ['server/src/ext/x.ts', "import { a } from '../live/ingest.ts';\nexport { a };\n"],
    ['server/src/live/x.ts', "import { a } from '../traccar/access.ts';\nexport { a };\n"],
    ['server/src/traccar/x.ts', "import { a } from '../errors.ts';\nexport { a };\n"],
  ])('%s may: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

describe('web layers', () => {
  it('a feature imports neither app/ nor another feature; a shared piece neither', async () => {
    expect(
      await refusals(
        'web/src/features/devices/x.ts',
        "import { a } from '../../app/pages.tsx';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    expect(
      await refusals(
        'web/src/features/devices/x.ts',
        "import { a } from '../map/index.ts';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    expect(
      await refusals(
        'web/src/components/x.ts',
        "import { a } from '../features/map/index.ts';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    expect(
      await refusals(
        'web/src/features/devices/x.ts',
        "import { a } from '../../api/http.ts';\nexport { a };\n",
      ),
    ).toEqual([]);
  });

  // issue #33: the old path patterns let these through
  it.each([
    ['web/src/features/devices/x.ts', "import { a } from '../../features/map/index.ts';\nexport { a };\n"],
    ['web/src/features/devices/parts/x.ts', "import { a } from '../../map/index.ts';\nexport { a };\n"],
    ['web/src/features/devices/x.ts', "export const m = () => import('../map/MapView.tsx');\n"],
    ['web/src/features/devices/x.ts', 'export const m = () => import(`../../app/pages.tsx`);\n'],
    ['web/src/shell/x.ts', "export const m = () => import('../app/guard.ts');\n"],
    ['web/src/stores/x.ts', "export * from '../features/map/index.ts';\n"],
  ])('%s may not, however the path is written: %s', async (file, code) => {
    expect(await refusals(file, code)).toHaveLength(1);
  });

  it.each([
    ['web/src/features/devices/parts/x.ts', "import { a } from '../list.ts';\nexport { a };\n"],
    ['web/src/features/devices/x.ts', "export const m = () => import('../../shell/dialogs.ts');\n"],
    ['web/src/app/x.ts', "export const m = () => import('../features/map/MapView.tsx');\n"],
  ])('%s may: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

describe('function length (issue #33)', () => {
  const body = (n: number) =>
    `export function f(): number {\n  let x = 0;\n${'  x++;\n'.repeat(n)}  return x;\n}\n`;
  async function lengthErrors(file: string, code: string): Promise<number> {
    const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
    return result.messages.filter((m) => m.ruleId === 'max-lines-per-function').length;
  }

  it('refuses a function over 200 lines in server, web and domain sources, not in tests', async () => {
    expect(await lengthErrors('server/src/live/x.ts', body(200))).toBe(1);
    expect(await lengthErrors('web/src/features/devices/x.tsx', body(200))).toBe(1);
    expect(await lengthErrors('packages/domain/src/x.ts', body(200))).toBe(1);
    expect(await lengthErrors('server/src/live/x.ts', body(190))).toBe(0);
    expect(await lengthErrors('server/test/x.test.ts', body(200))).toBe(0);
  });
});
