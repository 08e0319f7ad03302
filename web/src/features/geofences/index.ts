export { GeofencesPage } from './GeofencesPage.tsx';
