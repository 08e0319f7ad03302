// The languages the walks (issue #29) read pages in, and the web app's locale files as the walks and their unit test
// read them (no browser or Playwright here, so vitest can load it too).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type WalkLocale = 'pt-BR' | 'es' | 'en-US';

/** A locale file of the web app, parsed. */
export function localeFile(locale: WalkLocale, ns: string): Record<string, unknown> {
  return JSON.parse(
    readFileSync(resolve(import.meta.dirname, `../src/i18n/locales/${locale}/${ns}.json`), 'utf8'),
  ) as Record<string, unknown>;
}
