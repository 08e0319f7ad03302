// The changelog dialog itself is loaded on demand (dialogRegistry imports ./dialog.ts).
export { useVersionClicks, APP_VERSION } from './useVersionClicks.ts';
