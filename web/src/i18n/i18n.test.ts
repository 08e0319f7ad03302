import { describe, expect, it } from 'vitest';
import { chooseLocale, MESSAGE_KEYS } from '@rastro/domain';
import { createI18n, resources, SUPPORTED_LOCALES } from './index.ts';

describe('locale choice (SPEC §1)', () => {
  it('query, then browser languages, then <html lang>, then pt-BR', () => {
    expect(chooseLocale({ query: 'es', browser: ['en-US'], htmlLang: 'pt-BR' })).toBe('es');
    expect(chooseLocale({ query: 'fr', browser: ['de', 'en-GB'], htmlLang: 'es' })).toBe('en-US');
    expect(chooseLocale({ query: null, browser: ['de'], htmlLang: 'es-AR' })).toBe('es');
    expect(chooseLocale({ browser: [] })).toBe('pt-BR');
    expect(chooseLocale({ query: 'pt' })).toBe('pt-BR');
  });
});

describe('i18n', () => {
  it('shows a missing key wrapped in ⟦ ⟧', () => {
    const i18n = createI18n('pt-BR');
    expect(i18n.t('shell:no.such.key')).toBe('⟦no.such.key⟧');
  });

  it('translates in pt-BR (default), es and en-US', () => {
    expect(createI18n('pt-BR').t('shell:expired.message')).toBe('Sua sessão expirou!');
    expect(createI18n('pt-BR').t('shell:expired.title')).toBe('Atenção');
    expect(createI18n('pt-BR').t('shell:expired.leave')).toBe('Sair');
    expect(createI18n('es').t('auth:login.title')).toBe('Iniciar sesión');
    expect(createI18n('en-US').t('auth:login.title')).toBe('Sign in');
  });

  it('every namespace has the same keys in the three languages', () => {
    const flat = (o: unknown, p = ''): string[] =>
      typeof o === 'object' && o !== null
        ? Object.entries(o).flatMap(([k, v]) => flat(v, p ? `${p}.${k}` : k))
        : [p];
    const owned = Object.keys(resources['pt-BR'] ?? {});
    for (const ns of owned) {
      const keys = SUPPORTED_LOCALES.map((l) => flat(resources[l]?.[ns]).sort());
      expect(keys[0].length, ns).toBeGreaterThan(0);
      expect(keys[1], `${ns} es`).toEqual(keys[0]);
      expect(keys[2], `${ns} en-US`).toEqual(keys[0]);
    }
  });

  it('every domain message key (validation.*, loginErrors.*) resolves in every language', () => {
    for (const l of SUPPORTED_LOCALES) {
      const i18n = createI18n(l);
      for (const key of MESSAGE_KEYS) expect(i18n.t(key), `${l} ${key}`).not.toMatch(/^⟦/);
    }
  });
});
