// i18next setup (SPEC §1): pt-BR default, es and en-US; fallback en-US; a missing key shows as ⟦key⟧.
// Resources are JSON files per namespace, web/src/i18n/locales/<lang>/<namespace>.json, loaded eagerly.
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultMessages, nestMessages } from '@rastro/domain';
import { chooseLocale, FALLBACK_LOCALE, SUPPORTED_LOCALES, type Locale } from './locale.ts';

export { SUPPORTED_LOCALES, FALLBACK_LOCALE, type Locale };

type Json = Record<string, unknown>;

const files = import.meta.glob<Json>('./locales/*/*.json', { eager: true, import: 'default' });

/** { 'pt-BR': { common: {...}, auth: {...} }, ... } from the glob above. */
export function buildResources(modules: Record<string, Json> = files): Resource {
  const out: Resource = {};
  for (const [path, content] of Object.entries(modules)) {
    const m = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!m) continue;
    const [, lang, ns] = m;
    (out[lang] ??= {})[ns] = content as Json;
  }
  return out;
}

export const resources = buildResources();
export const namespaces = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

/** The marker of SPEC §1 for a key that no language has. */
export const missingKey = (key: string) => `⟦${key}⟧`;

/** Reads the locale sources of SPEC §1 from the page: ?locale=, browser languages, <html lang>. */
export function pageLocale(): Locale {
  const query = typeof location !== 'undefined' ? new URLSearchParams(location.search).get('locale') : null;
  const browser =
    typeof navigator !== 'undefined' ? [...(navigator.languages ?? []), navigator.language] : [];
  const htmlLang = typeof document !== 'undefined' ? document.documentElement.lang : null;
  return chooseLocale({ query, browser, htmlLang });
}

export function createI18n(lng: Locale = pageLocale()): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    ns: namespaces,
    defaultNS: 'common',
    fallbackNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    parseMissingKeyHandler: (key: string) => missingKey(key),
  });
  // The domain's message keys (validation.*, loginErrors.*, …) with their default wording seed the `common`
  // namespace; the locale files win where they say otherwise.
  for (const lng of SUPPORTED_LOCALES) {
    instance.addResourceBundle(lng, 'common', nestMessages(defaultMessages[lng]), true, false);
  }
  return instance;
}

export const i18n = createI18n();

/** Switches the language and keeps <html lang> in step. */
export async function setLocale(lng: Locale): Promise<void> {
  await i18n.changeLanguage(lng);
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/** Intl locale for dates, numbers and currency in the current language. */
export function intlLocale(): string {
  const l = i18n.language as Locale;
  return l === 'es' ? 'es-ES' : l;
}
