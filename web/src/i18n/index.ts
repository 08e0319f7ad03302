// i18next setup (SPEC §1): pt-BR default, es and en-US; fallback en-US; a missing key shows as ⟦key⟧.
// Resources are JSON files per namespace, web/src/i18n/locales/<lang>/<namespace>.json, plus the domain's message
// catalogue (validation.*, loginErrors.*, …) under `common`. Nothing of another language is downloaded unless it
// is chosen, and texts come in tiers (namespaces.ts; issue #13, page weight): a sign-in page downloads only its
// own namespaces before its first render (the login errors' wording is always there), and the rest of the
// domain's catalogue right after painting (loadDomainMessages, awaited by its form checks); the signed-in shell
// downloads its namespaces and the catalogue with its code (loadShellTexts); each screen or dialog its own
// namespaces with its code (withTexts).
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
// the locale rule (SPEC §1 order: ?locale=, browser language, <html lang>, pt-BR; fallback en-US) is the domain's
import {
  chooseLocale,
  FALLBACK_LOCALE,
  loginErrorWording,
  SUPPORTED_LOCALES,
  type SupportedLocale as Locale,
} from '@rastro/domain';
import { SCREEN_NAMESPACES, SIGN_IN_NAMESPACES } from './namespaces.ts';

export { SUPPORTED_LOCALES, FALLBACK_LOCALE, SCREEN_NAMESPACES, SIGN_IN_NAMESPACES, type Locale };

type Json = Record<string, unknown>;
type DomainMessages = typeof import('./domainMessages.ts');

const loaders = import.meta.glob<Json>('./locales/*/*.json', { import: 'default' });

const parsePath = (path: string) => /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);

/** Every namespace any language has (from the file names; nothing is downloaded to know them). */
export const namespaces = [...new Set(Object.keys(loaders).flatMap((p) => parsePath(p)?.[2] ?? []))];

/** What the signed-in shell renders with at its first paint. */
export const SHELL_NAMESPACES: readonly string[] = namespaces.filter((n) => !SCREEN_NAMESPACES.includes(n));

/** The namespace files downloaded so far: { 'pt-BR': { common: {...}, auth: {...} }, ... }. */
export const resources: Resource = {};
const downloads = new Map<string, Promise<void>>();
let domain: DomainMessages | null = null;
let domainDownload: Promise<DomainMessages> | null = null;

/** Downloads a language's namespace files (all unless `only` names some), each once. */
export async function fetchLanguage(lng: Locale, only: readonly string[] = namespaces): Promise<void> {
  await Promise.all(
    only.map((ns) => {
      const key = `${lng}/${ns}`;
      const load = loaders[`./locales/${key}.json`];
      if (!load || downloads.has(key)) return downloads.get(key);
      const p = load().then(
        (bundle) => void ((resources[lng] ??= {})[ns] = bundle),
        (err: unknown) => {
          downloads.delete(key); // a later call tries again
          throw err;
        },
      );
      downloads.set(key, p);
      return p;
    }),
  );
}

/** Adds what has been downloaded of a language to an instance: its namespace files, under them the domain's wording. */
function addLanguage(instance: I18n, lng: Locale): void {
  for (const [ns, bundle] of Object.entries(resources[lng] ?? {})) {
    instance.addResourceBundle(lng, ns, bundle as Json, true, true);
  }
  // The domain's message keys (validation.*, loginErrors.*, …) with their default wording seed the `common`
  // namespace; the locale files win where they say otherwise. The login errors are there from the start (a
  // sign-in page must word a connection error even when nothing more can be downloaded).
  instance.addResourceBundle(lng, 'common', { loginErrors: loginErrorWording(lng) }, true, false);
  if (domain)
    instance.addResourceBundle(lng, 'common', domain.nestMessages(domain.defaultMessages[lng]), true, false);
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
    // A key of a namespace not downloaded yet (a screen that forgot to name it in namespaces.ts): download
    // it; adding it re-renders what uses it (bindI18nStore), so the ⟦key⟧ shows for one round trip at most.
    saveMissing: true,
    missingKeyHandler: (_lngs: readonly string[], ns: string) => {
      if (namespaces.includes(ns) && !resources[instance.language as Locale]?.[ns]) void loadTexts([ns]);
    },
    react: { bindI18nStore: 'added' },
  });
  for (const l of SUPPORTED_LOCALES) if (resources[l]) addLanguage(instance, l);
  return instance;
}

export const i18n = createI18n();

/** Makes a language usable by the app's instance, downloading its files first (all, or only the named ones). */
export async function loadLanguage(lng: Locale, only?: readonly string[]): Promise<void> {
  await Promise.all([fetchLanguage(lng, only), only ? null : loadDomainMessages()]);
  addLanguage(i18n, lng);
}

/** The domain's message catalogue (a chunk of its own), added to every language downloaded so far. */
export function loadDomainMessages(): Promise<DomainMessages> {
  domainDownload ??= import('./domainMessages.ts').then(
    (m) => {
      domain = m;
      for (const l of SUPPORTED_LOCALES) if (resources[l]) addLanguage(i18n, l);
      return m;
    },
    (err: unknown) => {
      domainDownload = null;
      throw err;
    },
  );
  return domainDownload;
}

/** The shell's texts (SHELL_NAMESPACES and the domain's catalogue) in the current language and the fallback. */
export async function loadShellTexts(): Promise<void> {
  await Promise.all([loadTexts(SHELL_NAMESPACES), loadDomainMessages()]);
}

/** Some namespaces in the current language and the fallback (a screen's texts, with its code). */
export async function loadTexts(only: readonly string[]): Promise<void> {
  await Promise.all([loadLanguage(i18n.language as Locale, only), loadLanguage(FALLBACK_LOCALE, only)]);
}

/** Resolves with `code` once `only`'s texts are there too: lazy(() => withTexts(['users'], import('…'))). */
export function withTexts<T>(only: readonly string[], code: Promise<T>): Promise<T> {
  return Promise.all([code, loadTexts(only)]).then(([m]) => m);
}

/** Downloads every language (unit tests, which render any of them synchronously). */
export async function loadAllLanguages(): Promise<void> {
  await Promise.all(SUPPORTED_LOCALES.map((l) => loadLanguage(l)));
}

/** Switches the language and keeps <html lang> in step. */
export async function setLocale(lng: Locale): Promise<void> {
  // the same namespaces as the language it replaces: a sign-in page still downloads only its own
  const current = Object.keys(resources[i18n.language as Locale] ?? {});
  await loadLanguage(lng, current.length === namespaces.length ? undefined : current);
  await i18n.changeLanguage(lng);
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/** Intl locale for dates, numbers and currency in the current language. */
export function intlLocale(): string {
  const l = i18n.language as Locale;
  return l === 'es' ? 'es-ES' : l;
}
