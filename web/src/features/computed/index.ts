export { ComputedPage } from './ComputedPage.tsx';
