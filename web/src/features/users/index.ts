export { UsersPage } from './UsersPage.tsx';
