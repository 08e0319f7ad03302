export { DeviceActionsHost } from './DeviceActionsHost.tsx';
export { ShareDialog } from './ShareDialog.tsx';
