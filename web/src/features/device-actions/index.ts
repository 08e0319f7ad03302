export { DeviceActionsHost } from './DeviceActionsHost.tsx';
