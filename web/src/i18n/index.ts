// i18next setup (SPEC §1): pt-BR default, es and en-US; fallback en-US; a missing key shows as ⟦key⟧.
// Resources are JSON files per namespace, web/src/i18n/locales/<lang>/<namespace>.json. Only the active
// language is downloaded before the first render (main.tsx awaits loadLanguage); the fallback and any language
// picked later load on demand, so a visitor never downloads the other two languages' files.
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultMessages, nestMessages } from '@rastro/domain';
import { chooseLocale, FALLBACK_LOCALE, SUPPORTED_LOCALES, type Locale } from './locale.ts';

export { SUPPORTED_LOCALES, FALLBACK_LOCALE, type Locale };

type Json = Record<string, unknown>;

const loaders = import.meta.glob<Json>('./locales/*/*.json', { import: 'default' });

const parsePath = (path: string) => /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);

/** Every namespace any language has (from the file names; nothing is downloaded to know them). */
export const namespaces = [...new Set(Object.keys(loaders).flatMap((p) => parsePath(p)?.[2] ?? []))];

/** The languages downloaded so far: { 'pt-BR': { common: {...}, auth: {...} }, ... }. */
export const resources: Resource = {};
const pending = new Map<string, Promise<void>>();

/** Downloads one language's namespace files once (later calls share the first download). */
export function fetchLanguage(lng: Locale): Promise<void> {
  let p = pending.get(lng);
  if (!p) {
    const files = Object.entries(loaders).filter(([path]) => parsePath(path)?.[1] === lng);
    p = Promise.all(files.map(async ([path, load]) => [parsePath(path)![2], await load()] as const)).then(
      (bundles) => {
        resources[lng] = Object.fromEntries(bundles);
      },
    );
    pending.set(lng, p);
  }
  return p;
}

/** Adds a downloaded language to an instance: its locale files, under them the domain's default wording. */
function addLanguage(instance: I18n, lng: Locale): void {
  for (const [ns, bundle] of Object.entries(resources[lng] ?? {})) {
    instance.addResourceBundle(lng, ns, bundle as Json, true, true);
  }
  // The domain's message keys (validation.*, loginErrors.*, …) with their default wording seed the `common`
  // namespace; the locale files win where they say otherwise.
  instance.addResourceBundle(lng, 'common', nestMessages(defaultMessages[lng]), true, false);
}

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

/** An instance holding every language downloaded so far (tests download all three first). */
export function createI18n(lng: Locale = pageLocale()): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: {},
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
  for (const l of SUPPORTED_LOCALES) if (resources[l]) addLanguage(instance, l);
  return instance;
}

export const i18n = createI18n();

/** Makes a language usable by the app's instance, downloading it first if needed. */
export async function loadLanguage(lng: Locale): Promise<void> {
  await fetchLanguage(lng);
  if (!i18n.hasResourceBundle(lng, namespaces[0] ?? 'common')) addLanguage(i18n, lng);
}

/** Downloads every language (unit tests, which render any of them synchronously). */
export async function loadAllLanguages(): Promise<void> {
  await Promise.all(SUPPORTED_LOCALES.map(loadLanguage));
}

/** Switches the language and keeps <html lang> in step. */
export async function setLocale(lng: Locale): Promise<void> {
  await loadLanguage(lng);
  await i18n.changeLanguage(lng);
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/** Intl locale for dates, numbers and currency in the current language. */
export function intlLocale(): string {
  const l = i18n.language as Locale;
  return l === 'es' ? 'es-ES' : l;
}
