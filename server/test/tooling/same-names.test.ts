// scripts/check-same-names.mjs (issue #27, one home per rule): a top-level function, class or const of web/src or
// server/src named like a value export of @rastro/domain is a rule copied next to its home. The check must see
// every declaration form, leave imports and types alone, and find nothing in the tree.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import * as check from '../../../scripts/check-same-names.mjs';

type Clash = { file: string; line: number; name: string };
const { checkTree, domainValueExports, sameNames, topLevelNames } = check as {
  topLevelNames(text: string, fileName?: string): { name: string; line: number }[];
  domainValueExports(): Set<string>;
  sameNames(domainNames: Set<string>, paths: string[]): Clash[];
  checkTree(): Clash[];
};

const dir = mkdtempSync(join(tmpdir(), 'rastro-same-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the type checker reads the domain once (several seconds on a busy machine): a guard, not a timing check
describe('check-same-names', { timeout: 120_000 }, () => {
  it('reads top-level functions, classes, consts and destructured names; not nested ones, imports or types', () => {
    const text = `import { isReadonly } from '@rastro/domain';
import type { Device } from '@rastro/domain';
export function knotsToKmh(kn: number) { return kn * 1.852; }
const isAdmin = (u: { administrator?: boolean }) => !!u.administrator;
export const { a, b: [c] } = { a: 1, b: [2] };
export class LruCache {}
export type Restriction = 'readonly';
interface UserLike { id: number }
function outer() { const formatSpeed = 1; return formatSpeed; }`;
    expect(topLevelNames(text, 'x.ts').map((n) => n.name)).toEqual([
      'knotsToKmh',
      'isAdmin',
      'a',
      'c',
      'LruCache',
      'outer',
    ]);
  });

  it('the domain exports are its values (functions, consts, classes), renamed ones by their exported name', () => {
    const names = domainValueExports();
    for (const n of ['knotsToKmh', 'isReadonly', 'LruCache', 'parseIdList', 'queryIdList'])
      expect(names.has(n), n).toBe(true);
    for (const n of ['idList', 'Device', 'PermissionContext']) expect(names.has(n), n).toBe(false);
  });

  it('flags a web or server declaration named like a domain export, with its line', () => {
    const file = join(dir, 'copy.ts');
    writeFileSync(
      file,
      "import { x } from './x.ts';\n\nexport const knotsToKmh = (kn: number) => kn * 1.852;\n",
    );
    expect(sameNames(new Set(['knotsToKmh', 'isReadonly']), [file])).toEqual([
      { file, line: 3, name: 'knotsToKmh' },
    ]);
    writeFileSync(
      file,
      "import { knotsToKmh } from '@rastro/domain';\nexport const speed = knotsToKmh(3);\n",
    );
    expect(sameNames(new Set(['knotsToKmh']), [file])).toEqual([]);
  });

  it('web/src and server/src re-implement no domain export under its name', () => {
    expect(checkTree()).toEqual([]);
  });
});
