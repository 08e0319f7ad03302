export {
  useVersionClicks,
  versionClick,
  VERSION_CLICKS,
  VERSION_CLICK_WINDOW_MS,
} from './useVersionClicks.ts';
export { ChangelogDialog, APP_VERSION } from './ChangelogDialog.tsx';
