// SPEC §1 locale choice: ?locale= query parameter, browser language(s), page lang attribute, then pt-BR.
// en-US is the translation fallback. Tags are normalised: 'es-ES' ⇒ 'es', 'en' ⇒ 'en-US', 'pt' ⇒ 'pt-BR'.

export const SUPPORTED_LOCALES = ['pt-BR', 'es', 'en-US'] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: SupportedLocale = 'pt-BR';
export const FALLBACK_LOCALE: SupportedLocale = 'en-US';

/** Any pt*, es*, en* tag (case-insensitive, '_' or '-') to a supported locale; null otherwise. */
export function normalizeLocale(tag: string | null | undefined): SupportedLocale | null {
  if (!tag) return null;
  const t = tag.trim().replace(/_/g, '-').toLowerCase();
  if (t === '') return null;
  const lang = t.split('-')[0];
  if (lang === 'pt') return 'pt-BR';
  if (lang === 'es') return 'es';
  if (lang === 'en') return 'en-US';
  return null;
}

export interface LocaleSources {
  query?: string | null;
  browser?: readonly (string | null | undefined)[] | string | null;
  htmlLang?: string | null;
}

export function chooseLocale(src: LocaleSources): SupportedLocale {
  const browser = typeof src.browser === 'string' ? [src.browser] : (src.browser ?? []);
  const candidates = [src.query, ...browser, src.htmlLang];
  for (const c of candidates) {
    const l = normalizeLocale(c);
    if (l) return l;
  }
  return DEFAULT_LOCALE;
}
