export { LinkObjectsDialog } from './LinkObjectsDialog.tsx';
