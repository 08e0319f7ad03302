import { createTheme } from '@mantine/core';

/** Mantine theme; light and dark schemes follow the system by default and can be switched in the user menu. */
export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
});
