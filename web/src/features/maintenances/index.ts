export { MaintenancesDialog } from './MaintenancesDialog.tsx';
