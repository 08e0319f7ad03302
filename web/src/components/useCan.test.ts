// Dialogs and pages ask the access table through useCan (issue #28), not the permission functions one by one: no
// file but components/useCan.ts calls canManage…/isReadonly/deviceReadonly/limitCommands itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..');
const DIRECT = /\b(canManage\w*|isReadonly|isDeviceReadonly|deviceReadonly|limitCommands)\(/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('permission questions go through useCan', () => {
  it('no file outside components/useCan.ts calls the permission functions directly', () => {
    const direct = sources(src)
      .map((path) => relative(src, path).split('\\').join('/'))
      .filter((file) => file !== 'components/useCan.ts')
      .filter((file) => DIRECT.test(readFileSync(join(src, file), 'utf8')));
    expect(direct).toEqual([]);
  });
});
