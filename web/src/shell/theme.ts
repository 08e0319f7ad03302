import {
  createTheme,
  darken,
  mergeThemeOverrides,
  type MantineTheme,
  type MantineThemeOverride,
} from '@mantine/core';
import './mobile.css';

/** Mantine theme; light and dark schemes follow the system by default and can be switched in the user menu. */
export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  // WCAG AA contrast (issue #29, axe-core's color-contrast): a filled button or badge writes black on a colour
  // lighter than this luminance and white on a darker one, so either way the ratio is at least 4.5:1
  autoContrast: true,
  luminanceThreshold: 0.179,
  components: {
    // every dialog fills a phone's screen (≤ 768 px, mobile.css) instead of a narrow box with a page behind it;
    // a plain object rather than `Modal.extend(…)`, which would put the modal's code into the entry chunk
    Modal: { classNames: { inner: 'rastro-modal-inner', content: 'rastro-modal-content' } },
  },
});

/** The texts of Mantine's own controls (common.json). */
export interface MantineTexts {
  passwordVisibility: string;
  close: string;
  clear: string;
  remove: string;
  eyeDropper: string;
  pages: Record<'first' | 'previous' | 'next' | 'last', string>;
}

/**
 * Mantine's own texts in the user's language (issue #29): the password visibility toggle's label, and the names of
 * the buttons Mantine draws as a bare icon, which a screen reader read as "button": the close (×) of every dialog,
 * drawer, alert and notification, a select's clear and a chip's remove button, the pager's arrows, the colour
 * field's eyedropper.
 */
export function localizedTheme(base: MantineThemeOverride, texts: MantineTexts) {
  const closeButtonProps = { 'aria-label': texts.close };
  const clearButtonProps = { 'aria-label': texts.clear };
  return mergeThemeOverrides(base, {
    components: {
      PasswordInput: {
        defaultProps: { visibilityToggleButtonProps: { 'aria-label': texts.passwordVisibility } },
      },
      Modal: { defaultProps: { closeButtonProps } },
      Drawer: { defaultProps: { closeButtonProps } },
      Notification: { defaultProps: { closeButtonProps } },
      Alert: { defaultProps: { closeButtonLabel: texts.close } },
      Select: { defaultProps: { clearButtonProps } },
      MultiSelect: { defaultProps: { clearButtonProps } },
      Pill: { defaultProps: { removeButtonProps: { 'aria-label': texts.remove } } },
      ColorInput: { defaultProps: { eyeDropperButtonProps: { 'aria-label': texts.eyeDropper } } },
      Pagination: {
        defaultProps: {
          getControlProps: (control: 'first' | 'previous' | 'next' | 'last') => ({
            'aria-label': texts.pages[control],
          }),
        },
      },
    },
  });
}

/**
 * Light-scheme colour tokens with WCAG AA contrast on white and on the light variants' tints (issue #29): dimmed
 * text is gray 7 instead of gray 6 (3.3:1), links the primary colour's shade 8 instead of 6 (3.5:1), and each colour's light-variant text is its shade 9 darkened by a third
 * (Mantine's shade 9 of green, yellow, orange … reads under 4.5:1 on its own tint).
 */
export function contrastLightVariables(theme: MantineTheme): Record<string, string> {
  const out: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': `var(--mantine-color-${theme.primaryColor}-8)`,
  };
  for (const [name, shades] of Object.entries(theme.colors))
    out[`--mantine-color-${name}-light-color`] = darken(shades[9], 0.35);
  return out;
}

/**
 * Dark-scheme tokens with WCAG AA contrast on the dark body (the monitoring desk's wall screen, issue #32): dimmed text
 * is dark 1 instead of dark 2 (4.3:1 on dark 7), and a filled colour is its shade 6 as in the light scheme instead of
 * Mantine's dark shade 8, so the black or white that autoContrast picks for shade 6 reads on it (black on blue 8 was
 * 4.2:1).
 */
export function contrastDarkVariables(theme: MantineTheme): Record<string, string> {
  const out: Record<string, string> = { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' };
  for (const name of Object.keys(theme.colors)) {
    out[`--mantine-color-${name}-filled`] = `var(--mantine-color-${name}-6)`;
    out[`--mantine-color-${name}-filled-hover`] = `var(--mantine-color-${name}-7)`;
  }
  return out;
}
