export { CommandsPage } from './CommandsPage.tsx';
export { SendCommandDialog } from './SendCommandDialog.tsx';
