import { createTheme, mergeThemeOverrides, type MantineThemeOverride } from '@mantine/core';
import './mobile.css';

/** Mantine theme; light and dark schemes follow the system by default and can be switched in the user menu. */
export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  components: {
    // every dialog fills a phone's screen (≤ 768 px, mobile.css) instead of a narrow box with a page behind it;
    // a plain object rather than `Modal.extend(…)`, which would put the modal's code into the entry chunk
    Modal: { classNames: { inner: 'rastro-modal-inner', content: 'rastro-modal-content' } },
  },
});

/** Mantine's own texts in the user's language (issue #29): the password visibility toggle's label. */
export function localizedTheme(base: MantineThemeOverride, texts: { passwordVisibility: string }) {
  return mergeThemeOverrides(base, {
    components: {
      PasswordInput: {
        defaultProps: { visibilityToggleButtonProps: { 'aria-label': texts.passwordVisibility } },
      },
    },
  });
}
