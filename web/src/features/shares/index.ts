export { ShareDialog } from './ShareDialog.tsx';
export { SharesDialog } from './SharesDialog.tsx';
