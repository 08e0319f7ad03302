export { InvoicesDialog } from './InvoicesDialog.tsx';
export { InvoicesManagerDialog } from './InvoicesManagerDialog.tsx';
export { IntegrationsDialog } from './IntegrationsDialog.tsx';
