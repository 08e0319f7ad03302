import { describe, expect, it } from 'vitest';
import { chooseLocale, normalizeLocale, DEFAULT_LOCALE, FALLBACK_LOCALE } from '../src/locale.ts';

describe('locale (SPEC §1)', () => {
  it('normalises tags', () => {
    expect(normalizeLocale('es-ES')).toBe('es');
    expect(normalizeLocale('es_AR')).toBe('es');
    expect(normalizeLocale('en')).toBe('en-US');
    expect(normalizeLocale('en-GB')).toBe('en-US');
    expect(normalizeLocale('pt')).toBe('pt-BR');
    expect(normalizeLocale('PT-pt')).toBe('pt-BR');
    expect(normalizeLocale('fr-FR')).toBeNull();
    expect(normalizeLocale('')).toBeNull();
    expect(normalizeLocale(null)).toBeNull();
  });
  it('order: query, browser, page lang, pt-BR', () => {
    expect(chooseLocale({ query: 'en', browser: ['es-ES'], htmlLang: 'pt' })).toBe('en-US');
    expect(chooseLocale({ query: 'xx', browser: ['fr', 'es-ES'], htmlLang: 'en' })).toBe('es');
    expect(chooseLocale({ browser: 'fr', htmlLang: 'en' })).toBe('en-US');
    expect(chooseLocale({})).toBe('pt-BR');
    expect(DEFAULT_LOCALE).toBe('pt-BR');
    expect(FALLBACK_LOCALE).toBe('en-US');
  });
});
