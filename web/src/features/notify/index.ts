export { NotifyHost } from './NotifyHost.tsx';
