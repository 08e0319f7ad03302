export { ServerHealthPage } from './ServerHealthPage.tsx';
