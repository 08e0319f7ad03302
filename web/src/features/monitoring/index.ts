export { MonitoringPage } from './MonitoringPage.tsx';
