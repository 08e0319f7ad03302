export { GroupsPage } from './GroupsPage.tsx';
