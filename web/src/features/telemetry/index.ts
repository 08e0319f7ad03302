export { GraphicsDialog } from './GraphicsDialog.tsx';
