export { CalendarsDialog } from './CalendarsDialog.tsx';
