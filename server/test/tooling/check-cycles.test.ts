// scripts/check-cycles.mjs (issue #13, run by `npm test`): it must see every import form, type-only ones too,
// and find a circle however long.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import { cycles, graph, importsOf } from '../../../scripts/check-cycles.mjs';

const dir = mkdtempSync(join(tmpdir(), 'rastro-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('check-cycles', () => {
  it('reads static, type-only, multi-line, re-export and dynamic imports; ignores packages', () => {
    const text = `import { a } from './a.ts';
import type { B } from '../b.ts';
import {
  c,
  type D,
} from './c.ts';
export { e } from './e.ts';
export type { F } from './f.ts';
import './side.css';
const g = await import('./g.ts');
import { z } from 'zod';`;
    expect(importsOf(text)).toEqual([
      './a.ts',
      '../b.ts',
      './c.ts',
      './e.ts',
      './f.ts',
      './side.css',
      './g.ts',
    ]);
  });

  it('finds a three-file circle closed by a type-only import, and none once it is broken', () => {
    const a = file('a.ts', "import { b } from './b.ts';\nexport const a = b;\n");
    const b = file('b.ts', "import { c } from './c.ts';\nexport const b = c;\n");
    const c = file('c.ts', "import type { A } from './a.ts';\nexport const c = 1 as unknown as A;\n");
    const found = cycles(graph([a, b, c])) as string[][];
    expect(found).toHaveLength(1);
    expect(found[0].sort()).toEqual([a, b, c].sort());
    file('c.ts', 'export const c = 1;\n');
    expect(cycles(graph([a, b, c]))).toEqual([]);
  });
});
