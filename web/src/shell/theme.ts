import { createTheme, Modal } from '@mantine/core';
import './mobile.css';

/** Mantine theme; light and dark schemes follow the system by default and can be switched in the user menu. */
export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  components: {
    // every dialog fills a phone's screen (≤ 768 px, mobile.css) instead of a narrow box with a page behind it
    Modal: Modal.extend({ classNames: { inner: 'rastro-modal-inner', content: 'rastro-modal-content' } }),
  },
});
