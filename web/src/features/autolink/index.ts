export { AutolinkPage } from './AutolinkPage.tsx';
