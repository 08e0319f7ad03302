export { DevicesPage } from './DevicesPage.tsx';
export { DeviceDetailPage } from './DeviceDetailPage.tsx';
