import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { namespaces, SCREEN_NAMESPACES, SHELL_NAMESPACES } from '../i18n/index.ts';
import { FEATURE_TEXTS } from '../i18n/namespaces.ts';

const src = join(import.meta.dirname, '..');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return files(p);
    return /\.tsx?$/.test(f) && !/\.test\./.test(f) ? [p] : [];
  });

/** The namespaces a source file names: useTranslation('ns'), useTranslation([…'ns'…]), 'ns:key', { ns: 'ns' }. */
function namedIn(text: string): string[] {
  return namespaces.filter((ns) =>
    [
      new RegExp(`useTranslation\\(\\s*'${ns}'`),
      new RegExp(`useTranslation\\(\\s*\\[[^\\]]*'${ns}'`),
      new RegExp(`['\`"]${ns}:`),
      new RegExp(`\\bns:\\s*'${ns}'`),
      new RegExp(`\\bns:\\s*\\[[^\\]]*'${ns}'`),
    ].some((re) => re.test(text)),
  );
}

const folderName = (dir: string) => dir.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

describe('texts downloaded with each screen (issue #13)', () => {
  it('the tiers cover every namespace once', () => {
    for (const ns of SCREEN_NAMESPACES) expect(namespaces, ns).toContain(ns);
    expect([...SHELL_NAMESPACES, ...SCREEN_NAMESPACES].sort()).toEqual([...namespaces].sort());
  });

  it('every screen namespace a feature names is downloaded with that feature', () => {
    for (const dir of readdirSync(join(src, 'features'))) {
      const name = folderName(dir) as keyof typeof FEATURE_TEXTS;
      expect(
        FEATURE_TEXTS,
        `features/${dir} has no entry in i18n/namespaces.ts FEATURE_TEXTS`,
      ).toHaveProperty(name);
      const listed: readonly string[] = FEATURE_TEXTS[name];
      const named = new Set(
        files(join(src, 'features', dir)).flatMap((f) => namedIn(readFileSync(f, 'utf8'))),
      );
      // a shared component's texts come with the features that use it
      for (const f of files(join(src, 'features', dir))) {
        const text = readFileSync(f, 'utf8');
        if (text.includes('components/PeriodPicker')) named.add('reports');
      }
      for (const ns of named) {
        if (SCREEN_NAMESPACES.includes(ns) && name !== 'auth')
          expect(listed, `features/${dir} uses ${ns}`).toContain(ns);
      }
    }
  });

  it('the shell and the shared pieces name only the shell tier', () => {
    const shared = ['app', 'shell', 'components', 'branding', 'stores', 'api'].flatMap((d) =>
      files(join(src, d)),
    );
    for (const f of shared) {
      if (f.endsWith('PeriodPicker.tsx')) continue; // rendered only inside screens that list 'reports'
      if (f.endsWith('featureTexts.ts')) continue; // the list itself
      for (const ns of namedIn(readFileSync(f, 'utf8')))
        expect(SHELL_NAMESPACES, `${f} uses ${ns}`).toContain(ns);
    }
  });

  it('a key of a namespace not downloaded yet fetches it, and what shows it re-renders translated', async () => {
    vi.resetModules(); // a fresh i18n module: nothing downloaded yet
    const fresh = await import('../i18n/index.ts');
    await fresh.loadLanguage('pt-BR', fresh.SIGN_IN_NAMESPACES);
    await fresh.i18n.changeLanguage('pt-BR');
    expect(fresh.i18n.exists('groups:title')).toBe(false);
    function Title() {
      const { t } = useTranslation();
      return <span data-testid="title">{t('groups:title')}</span>;
    }
    render(
      <I18nextProvider i18n={fresh.i18n}>
        <Title />
      </I18nextProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('title').textContent).toBe('Grupos'));
    expect(Object.keys(fresh.resources['pt-BR'] ?? {})).toContain('groups');
  });
});
