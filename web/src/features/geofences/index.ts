export { GeofencesPage } from './GeofencesPage.tsx';
export { GeofenceFormDialog } from './GeofenceFormDialog.tsx';
