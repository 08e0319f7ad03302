export { DriversDialog } from './DriversDialog.tsx';
