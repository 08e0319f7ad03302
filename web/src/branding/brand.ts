// How the branding config's theme fields become the look of the app: a Mantine theme with the brand primary
// colour, CSS variables for the header, side menu and login panel colours, and the login background layers.
import type { MantineColorsTuple, MantineThemeOverride } from '@mantine/core';
import { mergeThemeOverrides } from '@mantine/core';
import { colourShades, readableTextOn } from '@rastro/domain';

const HEX = /^#[0-9a-fA-F]{6}$/;
/** Mantine's own blue 6: a brand primary of this colour keeps the stock theme. */
export const STOCK_PRIMARY = '#228be6';

/** The base theme with `primary` (#rrggbb) as the primary colour (palette `brand`, the colour is shade 6). */
export function brandMantineTheme(
  base: MantineThemeOverride,
  primary: string | undefined,
): MantineThemeOverride {
  if (!primary || !HEX.test(primary) || primary.toLowerCase() === STOCK_PRIMARY) return base;
  return mergeThemeOverrides(base, {
    colors: { brand: colourShades(primary.toLowerCase()) as unknown as MantineColorsTuple },
    primaryColor: 'brand',
  });
}

export interface BrandColours {
  header: string;
  menu: string;
  loginPanel: string;
}

/**
 * CSS variables for the shell: `--rastro-header-bg/-fg`, `--rastro-menu-bg/-fg`, `--rastro-login-panel-bg/-fg`.
 * An empty colour defines nothing, so the component falls back to the light/dark scheme.
 */
export function brandCssVariables(c: Partial<BrandColours> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (name: string, colour: string | undefined) => {
    if (!colour || !HEX.test(colour)) return;
    out[`--rastro-${name}-bg`] = colour;
    out[`--rastro-${name}-fg`] = readableTextOn(colour.toLowerCase());
  };
  put('header', c?.header);
  put('menu', c?.menu);
  put('login-panel', c?.loginPanel);
  return out;
}

/** A CSS background for the animated gradient (the colours, 135°, stretched so the animation can move it). */
export function gradientCss(colours: string[]): string {
  const list = colours.filter((c) => HEX.test(c));
  const use = list.length >= 2 ? list : ['#1c7ed6', '#7048e8', '#0ca678'];
  return `linear-gradient(135deg, ${use.join(', ')})`;
}

/** The slide shown at `tick` (every SLIDE_MS) of `count` slides. */
export const SLIDE_MS = 6000;
export const slideAt = (tick: number, count: number) => (count > 0 ? tick % count : 0);
