export { useVersionClicks } from './useVersionClicks.ts';
export { ChangelogDialog, APP_VERSION, CHANGELOG_WIDTH } from './ChangelogDialog.tsx';
