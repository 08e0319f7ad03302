export { NotificationsPage } from './NotificationsPage.tsx';
