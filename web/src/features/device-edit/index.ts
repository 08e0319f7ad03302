export { DeviceEditDialog } from './DeviceEditDialog.tsx';
export { DeviceQrDialog } from './DeviceQrDialog.tsx';
export { DeviceSheet } from './DeviceSheet.tsx';
