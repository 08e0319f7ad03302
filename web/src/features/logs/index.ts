export { LogsDialog } from './LogsDialog.tsx';
