export { NotificationsPage } from './RuleManager.tsx';
export { EventsDialog, NotificationsDialog } from './dialogs.tsx';
