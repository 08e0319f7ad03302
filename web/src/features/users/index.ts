export { UsersPage } from './UsersPage.tsx';
export { UserEditDialog } from './UserEditDialog.tsx';
