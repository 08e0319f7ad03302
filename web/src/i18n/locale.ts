// The locale rule lives in @rastro/domain (SPEC §1 order: ?locale=, browser language, <html lang>, pt-BR;
// fallback en-US); re-exported under the names the web uses.
export {
  chooseLocale,
  FALLBACK_LOCALE,
  SUPPORTED_LOCALES,
  type SupportedLocale as Locale,
} from '@rastro/domain';
