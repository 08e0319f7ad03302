export { ServerSettingsDialog } from './ServerSettingsDialog.tsx';
