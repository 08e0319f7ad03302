export { ChangelogDialog } from './ChangelogDialog.tsx';
