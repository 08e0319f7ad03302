// Adapter between the page and the domain's locale rule (SPEC §1 order: ?locale=, browser language,
// <html lang>, pt-BR; fallback en-US).
export const SUPPORTED_LOCALES = ['pt-BR', 'es', 'en-US'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt-BR';
export const FALLBACK_LOCALE: Locale = 'en-US';

export interface LocaleSources {
  query?: string | null;
  browser?: readonly (string | null | undefined)[];
  htmlLang?: string | null;
}

function normalize(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const t = tag.trim().replace('_', '-').toLowerCase();
  if (!t) return null;
  if (t === 'pt' || t.startsWith('pt-')) return 'pt-BR';
  if (t === 'es' || t.startsWith('es-')) return 'es';
  if (t === 'en' || t.startsWith('en-')) return 'en-US';
  return null;
}

export function chooseLocale(src: LocaleSources): Locale {
  return (
    normalize(src.query) ??
    (src.browser ?? []).map(normalize).find((l): l is Locale => l !== null) ??
    normalize(src.htmlLang) ??
    DEFAULT_LOCALE
  );
}
