// Brand colour helpers (SPEC §3 theme): a Mantine palette around one colour and readable text on it. No zod here:
// the branding provider of every page (the login page too) imports this file alone.

/** A #rrggbb colour. */
export const HEX = /^#[0-9a-fA-F]{6}$/;

function rgb(hexColour: string): [number, number, number] {
  const n = parseInt(hexColour.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
const toHex = (c: number[]) =>
  `#${c
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
const mix = (a: number[], b: number[], t: number) => a.map((v, i) => v + (b[i] - v) * t);

/**
 * Ten shades (lightest first) around a brand colour for a Mantine palette: the colour itself is shade 6
 * (Mantine's default primary shade); 0–5 mix it with white, 7–9 with black.
 */
export function colourShades(hexColour: string): string[] {
  if (!HEX.test(hexColour)) throw new Error(`not a #rrggbb colour: ${hexColour}`);
  const c = rgb(hexColour);
  const white = [255, 255, 255];
  const black = [0, 0, 0];
  const light = [0.9, 0.78, 0.62, 0.46, 0.3, 0.14];
  const dark = [0.14, 0.28, 0.42];
  return [
    ...light.map((t) => toHex(mix(c, white, t))),
    toHex(c),
    ...dark.map((t) => toHex(mix(c, black, t))),
  ];
}

/** WCAG relative luminance of a #rrggbb colour (0 black … 1 white). */
export function luminance(hexColour: string): number {
  const [r, g, b] = rgb(hexColour).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** White text when it reaches a 3:1 contrast with the background (WCAG large text, as in headers), else black. */
export function readableTextOn(background: string): '#000000' | '#ffffff' {
  return 1.05 / (luminance(background) + 0.05) >= 3 ? '#ffffff' : '#000000';
}
