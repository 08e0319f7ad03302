export { ChangelogDialog, CHANGELOG_WIDTH } from './ChangelogDialog.tsx';
