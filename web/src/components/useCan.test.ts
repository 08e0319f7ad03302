// Dialogs and pages ask the access table through useCan (issue #28), not the permission functions one by one: the
// files that still call canManage…/isReadonly/deviceReadonly/limitCommands themselves are listed here, a list that
// only shrinks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..');
const DIRECT = /\b(canManage\w*|isReadonly|isDeviceReadonly|deviceReadonly|limitCommands)\(/;

/** Files that still ask directly (their features are being reworked elsewhere): remove one once it asks useCan. */
const STILL_DIRECT = ['features/users/useUserEditForm.ts', 'features/users/useUsersList.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('permission questions go through useCan', () => {
  it('no file outside components/useCan.ts calls the permission functions directly (but the listed ones)', () => {
    const direct = sources(src)
      .map((path) => relative(src, path).split('\\').join('/'))
      .filter((file) => file !== 'components/useCan.ts')
      .filter((file) => DIRECT.test(readFileSync(join(src, file), 'utf8')))
      .filter((file) => !STILL_DIRECT.includes(file));
    expect(direct).toEqual([]);
  });
});
