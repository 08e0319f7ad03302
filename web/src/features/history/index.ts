export { HistoryPage } from './HistoryPage.tsx';
