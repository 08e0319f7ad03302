import { describe, expect, it } from 'vitest';
import { createTheme } from '@mantine/core';
import { brandCssVariables, brandMantineTheme, gradientCss, slideAt, STOCK_PRIMARY } from './brand.ts';

const base = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });

describe('brand theme', () => {
  it('a brand primary colour becomes the `brand` palette with the colour as shade 6', () => {
    const t = brandMantineTheme(base, '#E8590C');
    expect(t.primaryColor).toBe('brand');
    expect(t.colors?.brand).toHaveLength(10);
    expect(t.colors?.brand?.[6]).toBe('#e8590c');
    expect(t.defaultRadius).toBe('md');
  });

  it('the stock blue, a missing or a malformed colour keep the base theme', () => {
    expect(brandMantineTheme(base, STOCK_PRIMARY)).toBe(base);
    expect(brandMantineTheme(base, undefined)).toBe(base);
    expect(brandMantineTheme(base, 'orange')).toBe(base);
  });

  it('header, menu and login panel colours become CSS variables with readable text; empty ones none', () => {
    expect(brandCssVariables({ header: '#1a1b1e', menu: '', loginPanel: '#ffffff' })).toEqual({
      '--rastro-header-bg': '#1a1b1e',
      '--rastro-header-fg': '#ffffff',
      '--rastro-login-panel-bg': '#ffffff',
      '--rastro-login-panel-fg': '#000000',
    });
    expect(brandCssVariables(undefined)).toEqual({});
    expect(brandCssVariables({ header: 'url(x)' })).toEqual({});
  });

  it('the animated gradient uses the valid colours, or the default three', () => {
    expect(gradientCss(['#000000', '#ffffff'])).toBe('linear-gradient(135deg, #000000, #ffffff)');
    expect(gradientCss(['#000000', 'x'])).toBe('linear-gradient(135deg, #1c7ed6, #7048e8, #0ca678)');
  });

  it('the slider cycles through its images', () => {
    expect([0, 1, 2, 3, 4].map((n) => slideAt(n, 3))).toEqual([0, 1, 2, 0, 1]);
    expect(slideAt(5, 0)).toBe(0);
  });
});
