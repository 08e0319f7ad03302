export { NotificationsPage } from './NotificationsPage.tsx';
export { EventsDialog, NotificationsDialog } from './dialogs.tsx';
