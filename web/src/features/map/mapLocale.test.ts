// MapLibre's control texts in the user's language (issue #29): zoom, compass, attribution, fullscreen, geolocate
// and the map's own aria-label are given to every map the app creates.
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/index.ts';
import { mapLocale } from './mapLocale.ts';

describe('mapLocale', () => {
  it('translates every MapLibre control text in the three languages', () => {
    const english = Object.keys(mapLocale(createI18n('en-US').getFixedT('en-US', 'map'))).sort();
    expect(english).toContain('NavigationControl.ZoomIn');
    expect(english).toContain('CooperativeGesturesHandler.MobileHelpText');
    expect(english).toHaveLength(20);
    for (const l of ['pt-BR', 'es', 'en-US'] as const) {
      const locale = mapLocale(createI18n(l).getFixedT(l, 'map'));
      expect(Object.keys(locale).sort(), l).toEqual(english);
      for (const key of english) {
        expect(locale[key], `${l} ${key}`).toBeTruthy();
        expect(locale[key], `${l} ${key}`).not.toMatch(/⟦/);
      }
    }
  });

  it('speaks Portuguese in pt-BR', () => {
    const locale = mapLocale(createI18n('pt-BR').getFixedT('pt-BR', 'map'));
    expect(locale['NavigationControl.ZoomIn']).toBe('Aproximar');
    expect(locale['NavigationControl.ZoomOut']).toBe('Afastar');
    expect(locale['Map.Title']).toBe('Mapa');
    expect(locale['AttributionControl.ToggleAttribution']).toBe('Mostrar ou ocultar a atribuição');
    expect(Object.values(locale)).not.toContain('Zoom in');
  });
});
