export { CommandsPage } from './CommandsPage.tsx';
